"use client";

import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { primaryLink, tabClass } from "@/components/messages/styles";
import { EmptyState, PageHeader } from "@/components/panel/page-header";
import { Tab, TabList, TabPanel, Tabs } from "@/components/ui/tabs";
import type { BotsView as View } from "@/lib/client/bots-types";
import { useCurrentApp } from "@/lib/client/use-current-app";
import { BotsTable } from "./bots-table";

const VIEWS = [
  { id: "live", label: "Active and paused" },
  { id: "archived", label: "Archived" },
] as const satisfies readonly { id: View; label: string }[];
const VIEW_IDS = VIEWS.map((v) => v.id);

/** Bots: the app's bots, live or archived (the URL's `status` says which). */
export function BotsView() {
  const { app } = useCurrentApp();
  const router = useRouter();
  const params = useSearchParams();
  const view: View = params.get("status") === "archived" ? "archived" : "live";
  const choose = (v: View) => router.replace(v === "archived" ? "/bots?status=archived" : "/bots");
  return (
    <>
      <PageHeader
        title="Bots"
        description="Answer visitors' first messages: ask who they are, or send them to the right team."
        actions={
          app ? (
            <Link prefetch={false} href="/bots/new" className={primaryLink}>
              New bot
            </Link>
          ) : undefined
        }
      />
      {app ? (
        <div className="px-6 py-5 md:px-8">
          <Tabs ids={VIEW_IDS} selected={view} onSelect={choose}>
            <TabList label="Status" className="mb-4 flex gap-1 border-b border-slate-200">
              {VIEWS.map((v) => (
                <Tab key={v.id} id={v.id} className={tabClass}>
                  {v.label}
                </Tab>
              ))}
            </TabList>
            <TabPanel key={String(app.id)} tabIndex={-1} className="focus-visible:outline-none">
              <BotsTable key={view} appId={String(app.id)} view={view} />
            </TabPanel>
          </Tabs>
        </div>
      ) : (
        <EmptyState title="No app">You are not a member of any app yet.</EmptyState>
      )}
    </>
  );
}
