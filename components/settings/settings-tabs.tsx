"use client";

import { useEffect, useState } from "react";
import { EmptyState } from "@/components/panel/page-header";
import { cn } from "@/components/ui/cn";
import { Tab, TabList, TabPanel, Tabs } from "@/components/ui/tabs";
import { useCurrentApp } from "@/lib/client/use-current-app";
import { ApiKeysSection } from "./api-keys-section";
import { ChannelsSection } from "./channels-section";
import { EmailSection } from "./email-section";
import { MessengerSection } from "./messenger-section";
import { OfficeHoursSection } from "./office-hours-section";
import { OperatorsSection } from "./operators-section";
import { SavedRepliesSection } from "./saved-replies-section";
import { WebhooksSection } from "./webhooks-section";

const TABS = [
  { id: "api-keys", label: "API keys" },
  { id: "webhooks", label: "Webhooks" },
  { id: "channels", label: "Channels" },
  { id: "messenger", label: "Messenger" },
  { id: "office-hours", label: "Office hours" },
  { id: "email", label: "Email" },
  { id: "saved-replies", label: "Saved replies" },
  { id: "operators", label: "Operators" },
] as const;
type TabId = (typeof TABS)[number]["id"];
const TAB_IDS = TABS.map((t) => t.id);

const isTab = (s: string): s is TabId => TABS.some((t) => t.id === s);

/** The settings of the current app in tabs (the URL's hash names the tab, so it can be linked to). */
export function SettingsTabs() {
  const { app } = useCurrentApp();
  const [tab, setTab] = useState<TabId>("api-keys");

  useEffect(() => {
    const fromHash = () => {
      const h = window.location.hash.slice(1);
      if (isTab(h)) setTab(h);
    };
    fromHash();
    window.addEventListener("hashchange", fromHash);
    return () => window.removeEventListener("hashchange", fromHash);
  }, []);

  const choose = (id: TabId) => {
    setTab(id);
    window.history.replaceState(null, "", `#${id}`);
  };

  if (!app) return <EmptyState title="No app yet">Settings belong to an app.</EmptyState>;
  const appId = String(app.id);

  return (
    <div className="mx-auto max-w-5xl px-4 py-6 md:px-8">
      <Tabs ids={TAB_IDS} selected={tab} onSelect={choose}>
        <TabList
          label="Settings sections"
          className="-mx-1 mb-6 flex gap-1 overflow-x-auto border-b border-slate-200 px-1"
        >
          {TABS.map((t) => (
            <Tab
              key={t.id}
              id={t.id}
              className={(selected) =>
                cn(
                  "-mb-px border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap transition-colors",
                  "focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600",
                  selected
                    ? "border-brand-600 text-brand-700"
                    : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900",
                )
              }
            >
              {t.label}
            </Tab>
          ))}
        </TabList>
        {/* key: switching apps starts each section afresh (forms, open details, shown tokens). */}
        <TabPanel key={appId} tabIndex={-1} className="focus-visible:outline-none">
          {tab === "api-keys" && <ApiKeysSection appId={appId} />}
          {tab === "webhooks" && <WebhooksSection appId={appId} />}
          {tab === "messenger" && <MessengerSection appId={appId} />}
          {tab === "office-hours" && <OfficeHoursSection appId={appId} />}
          {tab === "email" && <EmailSection appId={appId} />}
          {tab === "channels" && <ChannelsSection appId={appId} />}
          {tab === "saved-replies" && <SavedRepliesSection appId={appId} />}
          {tab === "operators" && <OperatorsSection appId={appId} />}
        </TabPanel>
      </Tabs>
    </div>
  );
}
