"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { textLink } from "@/components/messages/styles";
import { EmptyState, PageHeader } from "@/components/panel/page-header";
import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Spinner } from "@/components/ui/spinner";
import { formatCount } from "@/lib/client/format";
import type { Bot } from "@/lib/client/bots-types";
import { useBot } from "@/lib/client/use-bot";
import { useCurrentApp } from "@/lib/client/use-current-app";
import { BotEditor } from "./bot-editor";
import { KIND_LABEL, STATUS_LABEL } from "./bot-format";
import { stepsOf, toForm, type BotForm } from "./bot-form-state";
import { BotStats } from "./bot-stats";
import { BotStartPicker } from "./bot-start-picker";

const Back = () => (
  <Link prefetch={false} href="/bots" className={textLink}>
    ← All bots
  </Link>
);

function ForApp({ children }: { children: (appId: string) => ReactNode }) {
  const { app } = useCurrentApp();
  if (!app) return <EmptyState title="No app">You are not a member of any app yet.</EmptyState>;
  return <>{children(String(app.id))}</>;
}

/** /bots/new: a template (or nothing) to start from, then the editor. */
export function NewBotView() {
  return <ForApp>{(appId) => <NewBot key={appId} appId={appId} />}</ForApp>;
}

function NewBot({ appId }: { appId: string }) {
  const router = useRouter();
  const [form, setForm] = useState<BotForm | null>(null);
  const body = useRef<HTMLDivElement>(null);
  const picked = form !== null;

  // Once a start is chosen the picker is gone: the focus goes to the editor's first field, the name.
  useEffect(() => {
    if (picked) body.current?.querySelector<HTMLElement>("form input")?.focus();
  }, [picked]);

  return (
    <>
      <PageHeader
        title="New bot"
        description="Answers visitors' first messages before the team does."
        actions={<Back />}
      />
      <div ref={body} className="px-6 py-5 md:px-8">
        {form ? (
          <BotEditor
            appId={appId}
            botId={null}
            form={form}
            onChange={setForm}
            onSaved={(b) => router.replace(`/bots/${b.id}`)}
          />
        ) : (
          <BotStartPicker appId={appId} onPick={setForm} />
        )}
      </div>
    </>
  );
}

/** /bots/{id}: how the bot's runs went, and its editor. */
export function BotDetailView({ botId }: { botId: string }) {
  return <ForApp>{(appId) => <BotDetail key={appId} appId={appId} botId={botId} />}</ForApp>;
}

const FIGURES = [
  ["started", "Started"],
  ["running", "Running"],
  ["handed_over", "Handed over"],
  ["closed", "Closed"],
  ["taken_over", "Taken over"],
] as const satisfies readonly (readonly [keyof Bot["figures"], string])[];

function Figures({ bot }: { bot: Bot }) {
  return (
    <dl className="mb-5 flex flex-wrap gap-x-8 gap-y-2 text-sm" data-testid="bot-figures">
      {FIGURES.map(([key, label]) => (
        <div key={key}>
          <dt className="text-slate-600">{label}</dt>
          <dd className="text-lg font-semibold text-slate-900 tabular-nums">
            {formatCount(bot.figures[key])}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function BotDetail({ appId, botId }: { appId: string; botId: string }) {
  const q = useBot(appId, botId);
  // The operator's unsaved changes; null until they change something.
  const [draft, setDraft] = useState<BotForm | null>(null);

  if (q.isPending)
    return (
      <div className="px-6 py-10 md:px-8">
        <Spinner label="Loading the bot" />
      </div>
    );
  const b = q.data;
  const form = draft ?? (b ? toForm(b) : null);
  if (!b || !form)
    return (
      <>
        <PageHeader title="Bot" actions={<Back />} />
        <div className="space-y-3 px-6 py-5 md:px-8">
          {q.isError ? (
            <>
              <ErrorAlert error={q.error} title="Can’t load the bot" />
              <Button variant="secondary" size="sm" onClick={() => void q.refetch()}>
                Try again
              </Button>
            </>
          ) : (
            <ErrorAlert error={new Error("This bot's steps are not in a shape the editor knows.")} />
          )}
        </div>
      </>
    );
  return (
    <>
      <PageHeader
        title={b.name}
        description={`${KIND_LABEL[b.kind]} · ${STATUS_LABEL[b.status]}`}
        actions={<Back />}
      />
      <div className="px-6 py-5 md:px-8">
        <Figures bot={b} />
        <BotEditor
          appId={appId}
          botId={botId}
          form={form}
          onChange={setDraft}
          onSaved={() => setDraft(null)}
        />
        <div className="mt-8">
          <BotStats appId={appId} botId={botId} steps={stepsOf(b.steps) ?? []} />
        </div>
      </div>
    </>
  );
}
