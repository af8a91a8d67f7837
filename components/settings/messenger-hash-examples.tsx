"use client";

import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { Tab, TabList, TabPanel, Tabs } from "@/components/ui/tabs";
import { AUTH_SNIPPET, HASH_EXAMPLES } from "@/lib/messenger/hash-examples";

const EXAMPLE_IDS = HASH_EXAMPLES.map((e) => e.id);

export function MessengerHashExamples() {
  const [shown, setShown] = useState<(typeof HASH_EXAMPLES)[number]["id"]>("node");
  const example = HASH_EXAMPLES.find((e) => e.id === shown) ?? HASH_EXAMPLES[0];
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-900">Computing the hash on your server</h3>
      <p className="mt-0.5 text-sm text-slate-600">
        Pass the user ID and this hash to the messenger when the user is logged in. Never put the secret in
        your pages.
      </p>
      <Tabs ids={EXAMPLE_IDS} selected={shown} onSelect={setShown}>
        <TabList label="Language" className="mt-2 flex gap-1">
          {HASH_EXAMPLES.map((e) => (
            <Tab
              key={e.id}
              id={e.id}
              className={(on) =>
                cn(
                  "rounded-md px-2.5 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600",
                  on ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100",
                )
              }
            >
              {e.label}
            </Tab>
          ))}
        </TabList>
        <TabPanel>
          <pre
            tabIndex={0}
            aria-label={`${example.label} example`}
            className="mt-2 overflow-x-auto rounded-lg bg-slate-900 px-3 py-2.5 font-mono text-xs text-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            {example.code}
          </pre>
        </TabPanel>
      </Tabs>
      <p className="mt-3 text-sm text-slate-600">
        Then, on pages where the user is logged in, render both into the page after the install snippet. The
        ID is the one your API calls use (spaces at either end are dropped; invisible characters are refused).
      </p>
      <pre
        tabIndex={0}
        aria-label="Page example"
        className="mt-2 overflow-x-auto rounded-lg bg-slate-900 px-3 py-2.5 font-mono text-xs text-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {AUTH_SNIPPET}
      </pre>
    </div>
  );
}
