"use client";

import type { ReactNode } from "react";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { EmptyState, PageHeader } from "@/components/panel/page-header";
import { Tab, TabList, TabPanel, Tabs } from "@/components/ui/tabs";
import { primaryLink, tabClass } from "@/components/messages/styles";
import { useCurrentApp } from "@/lib/client/use-current-app";

export type ListView = "live" | "archived";

const VIEWS = [
  { id: "live", label: "Active and paused" },
  { id: "archived", label: "Archived" },
] as const satisfies readonly { id: ListView; label: string }[];
const VIEW_IDS = VIEWS.map((v) => v.id);

/**
 * A page of things that run until archived (messages, bots): its header with the "New" link, and its list live or
 * archived, the URL's `status` saying which.
 */
export function ArchivableList(props: {
  title: string;
  description: string;
  /** The page's path, e.g. `/bots`; its `new` page is `${path}/new`. */
  path: string;
  newLabel: string;
  table: (appId: string, view: ListView) => ReactNode;
}) {
  const { app } = useCurrentApp();
  const router = useRouter();
  const params = useSearchParams();
  const view: ListView = params.get("status") === "archived" ? "archived" : "live";
  const choose = (v: ListView) =>
    router.replace(v === "archived" ? `${props.path}?status=archived` : props.path);
  return (
    <>
      <PageHeader
        title={props.title}
        description={props.description}
        actions={
          app ? (
            <Link prefetch={false} href={`${props.path}/new`} className={primaryLink}>
              {props.newLabel}
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
              {props.table(String(app.id), view)}
            </TabPanel>
          </Tabs>
        </div>
      ) : (
        <EmptyState title="No app">You are not a member of any app yet.</EmptyState>
      )}
    </>
  );
}
