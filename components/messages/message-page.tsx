"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState, type ReactNode } from "react";
import { EmptyState, PageHeader } from "@/components/panel/page-header";
import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Spinner } from "@/components/ui/spinner";
import { Tab, TabList, TabPanel, Tabs } from "@/components/ui/tabs";
import { useCurrentApp } from "@/lib/client/use-current-app";
import { useMe } from "@/lib/client/use-me";
import { useMessage } from "@/lib/client/use-message";
import { MessageEditor } from "./message-editor";
import { KIND_LABEL, STATUS_LABEL } from "./message-format";
import { newForm, toForm, type MessageForm } from "./message-form-state";
import { MessageStats } from "./message-stats";
import { tabClass, textLink } from "./styles";

const Back = () => (
  <Link prefetch={false} href="/messages" className={textLink}>
    ← All messages
  </Link>
);

function ForApp({ children }: { children: (appId: string) => ReactNode }) {
  const { app } = useCurrentApp();
  if (!app) return <EmptyState title="No app">You are not a member of any app yet.</EmptyState>;
  return <>{children(String(app.id))}</>;
}

/** /messages/new: the editor for a new message, from the logged-in operator by default. */
export function NewMessageView() {
  return <ForApp>{(appId) => <NewMessage key={appId} appId={appId} />}</ForApp>;
}

function NewMessage({ appId }: { appId: string }) {
  const router = useRouter();
  const me = useMe();
  const [form, setForm] = useState(() => newForm(me.data ? String(me.data.admin.id) : ""));
  return (
    <>
      <PageHeader
        title="New message"
        description="Sent to users when they do something."
        actions={<Back />}
      />
      <div className="px-6 py-5 md:px-8">
        <MessageEditor
          appId={appId}
          messageId={null}
          form={form}
          onChange={setForm}
          onSaved={(m) => router.replace(`/messages/${m.id}`)}
        />
      </div>
    </>
  );
}

const TABS = [
  { id: "message", label: "Message" },
  { id: "statistics", label: "Statistics" },
] as const;
type TabId = (typeof TABS)[number]["id"];
const TAB_IDS = TABS.map((t) => t.id);
const isTab = (s: string): s is TabId => TABS.some((t) => t.id === s);

/** /messages/{id}: the message's editor and its statistics, in tabs (the URL's hash names the tab). */
export function MessageDetailView({ messageId }: { messageId: string }) {
  return <ForApp>{(appId) => <MessageDetail key={appId} appId={appId} messageId={messageId} />}</ForApp>;
}

function MessageDetail({ appId, messageId }: { appId: string; messageId: string }) {
  const q = useMessage(appId, messageId);
  const [tab, setTab] = useState<TabId>("message");
  // The operator's unsaved changes; null until they change something.
  const [draft, setDraft] = useState<MessageForm | null>(null);

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

  if (q.isPending)
    return (
      <div className="px-6 py-10 md:px-8">
        <Spinner label="Loading the message" />
      </div>
    );
  if (q.isError)
    return (
      <>
        <PageHeader title="Message" actions={<Back />} />
        <div className="space-y-3 px-6 py-5 md:px-8">
          <ErrorAlert error={q.error} title="Can’t load the message" />
          <Button variant="secondary" size="sm" onClick={() => void q.refetch()}>
            Try again
          </Button>
        </div>
      </>
    );
  const m = q.data;
  const form = draft ?? toForm(m);
  return (
    <>
      <PageHeader
        title={m.name}
        description={`${KIND_LABEL[m.kind]} · ${STATUS_LABEL[m.status]}`}
        actions={<Back />}
      />
      <div className="px-6 py-5 md:px-8">
        <Tabs ids={TAB_IDS} selected={tab} onSelect={choose}>
          <TabList label="Message sections" className="mb-5 flex gap-1 border-b border-slate-200">
            {TABS.map((t) => (
              <Tab key={t.id} id={t.id} className={tabClass}>
                {t.label}
              </Tab>
            ))}
          </TabList>
          <TabPanel tabIndex={-1} className="focus-visible:outline-none">
            {tab === "message" ? (
              <MessageEditor
                appId={appId}
                messageId={messageId}
                form={form}
                onChange={setDraft}
                onSaved={() => setDraft(null)}
              />
            ) : (
              <MessageStats appId={appId} messageId={messageId} />
            )}
          </TabPanel>
        </Tabs>
      </div>
    </>
  );
}
