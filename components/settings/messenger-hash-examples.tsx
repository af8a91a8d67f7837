"use client";

import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { Tab, TabList, TabPanel, Tabs } from "@/components/ui/tabs";

/** How the site's server computes `user_hash`: hex HMAC-SHA256 of the user ID with the identity secret. */
const EXAMPLES = [
  {
    id: "node",
    label: "Node.js",
    code: `import crypto from "node:crypto";

const userHash = crypto
  .createHmac("sha256", process.env.RELAY_IDENTITY_SECRET)
  .update(String(user.id))
  .digest("hex");`,
  },
  {
    id: "python",
    label: "Python",
    code: `import hashlib, hmac, os

user_hash = hmac.new(
    os.environ["RELAY_IDENTITY_SECRET"].encode(),
    str(user.id).encode(),
    hashlib.sha256,
).hexdigest()`,
  },
  {
    id: "php",
    label: "PHP",
    code: `<?php
$userHash = hash_hmac('sha256', (string) $user->id, getenv('RELAY_IDENTITY_SECRET'));`,
  },
  {
    id: "ruby",
    label: "Ruby",
    code: `require "openssl"

user_hash = OpenSSL::HMAC.hexdigest("SHA256", ENV.fetch("RELAY_IDENTITY_SECRET"), user.id.to_s)`,
  },
] as const;

const EXAMPLE_IDS = EXAMPLES.map((e) => e.id);

/** What the page then says, once the user is logged in (after the install snippet). */
const PAGE_SNIPPET = `<script>
  Relay("auth", "USER_ID", "USER_HASH");
  // A refused hash (a wrong secret, a user ID that differs from the hashed one): the visitor stays anonymous.
  Relay("addCallback", "auth_refused", function (e) { console.warn("Relay auth refused", e.status, e.error); });
</script>`;

export function MessengerHashExamples() {
  const [shown, setShown] = useState<(typeof EXAMPLES)[number]["id"]>("node");
  const example = EXAMPLES.find((e) => e.id === shown) ?? EXAMPLES[0];
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-900">Computing the hash on your server</h3>
      <p className="mt-0.5 text-sm text-slate-600">
        Pass the user ID and this hash to the messenger when the user is logged in. Never put the secret in
        your pages.
      </p>
      <Tabs ids={EXAMPLE_IDS} selected={shown} onSelect={setShown}>
        <TabList label="Language" className="mt-2 flex gap-1">
          {EXAMPLES.map((e) => (
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
        {PAGE_SNIPPET}
      </pre>
    </div>
  );
}
