"use client";

import { useState } from "react";
import { Tab, TabList, TabPanel, Tabs } from "@/components/ui/tabs";

export interface CodeTab {
  id: string;
  label: string;
  code: string;
}

/** An endpoint's request in each language, on the panel's one tab set (components/ui/tabs.tsx). */
export function CodeTabs({ tabs, label }: { tabs: CodeTab[]; label: string }) {
  const [selected, setSelected] = useState(tabs[0]?.id ?? "");
  const current = tabs.find((t) => t.id === selected);
  return (
    <div className="overflow-hidden rounded-lg bg-slate-900">
      <Tabs ids={tabs.map((t) => t.id)} selected={selected} onSelect={setSelected}>
        <TabList label={label} className="flex gap-1 border-b border-slate-700 px-2 pt-2">
          {tabs.map((t) => (
            <Tab
              key={t.id}
              id={t.id}
              className={(on) =>
                `rounded-t px-3 py-1 text-xs ${on ? "bg-slate-700 text-white" : "text-slate-300 hover:text-white"}`
              }
            >
              {t.label}
            </Tab>
          ))}
        </TabList>
        <TabPanel tabIndex={0}>
          <pre className="overflow-x-auto p-4 text-xs leading-relaxed text-slate-100">
            <code>{current?.code}</code>
          </pre>
        </TabPanel>
      </Tabs>
    </div>
  );
}
