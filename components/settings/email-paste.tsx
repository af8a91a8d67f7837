"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Field } from "@/components/ui/field";
import { DEFAULT_FILTER, inboxSearch } from "@/lib/client/inbox/filters";
import type { InboundOutcome } from "@/lib/client/settings-types";
import { usePasteEmail } from "@/lib/client/use-paste-email";
import { SectionCard } from "./section-card";

const OUTCOME: Record<InboundOutcome, string> = {
  appended: "Added to a conversation.",
  started: "Started a conversation.",
  ignored: "Ignored.",
  refused: "Refused.",
  bounce: "Read as a bounce of one of the app's emails.",
};

/** A message a visitor might send the app, to start from: the headers the inbound path reads, and a body. */
function sampleMessage(address: string): string {
  const id = `${Date.now().toString(36)}.sample@example.com`;
  return [
    "From: Sam Sample <sam@example.com>",
    `To: ${address}`,
    "Subject: A question about my order",
    `Message-ID: <${id}>`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Hello, where is my order?",
    "",
  ].join("\r\n");
}

const textareaClass =
  "block w-full rounded-lg bg-white px-3 py-2 font-mono text-xs text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none aria-invalid:ring-red-400";

/** The inbound path without a mail server: a whole message, pasted, is handled as if it had been received. */
export function EmailPaste({ appId, address }: { appId: string; address: string }) {
  const paste = usePasteEmail(appId);
  const [raw, setRaw] = useState("");
  const [empty, setEmpty] = useState(false);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const blank = raw.trim() === "";
    setEmpty(blank);
    if (!blank) paste.mutate(raw);
  };
  const result = paste.data;
  const conversation = result?.conversation != null ? String(result.conversation) : null;

  return (
    <SectionCard
      title="Paste an email"
      titleId="email-paste-title"
      description={
        <>
          Try the inbound path without a mail server: paste a whole message, headers and body, as a mail
          program&apos;s “Show original” gives it. It is handled as if{" "}
          <code className="font-mono">{address}</code> had received it.
        </>
      }
    >
      <form onSubmit={submit} noValidate className="space-y-4" aria-labelledby="email-paste-title">
        <Field
          label="Message source"
          error={empty ? "Paste a message first." : undefined}
          labelAside={
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setRaw(sampleMessage(address));
                setEmpty(false);
              }}
            >
              Fill in a sample
            </Button>
          }
        >
          {(control) => (
            <textarea
              {...control}
              rows={8}
              spellCheck={false}
              placeholder={`From: someone@example.com\nTo: ${address}\nSubject: …\n\nThe message`}
              value={raw}
              onChange={(e) => setRaw(e.target.value)}
              className={textareaClass}
            />
          )}
        </Field>
        <ErrorAlert error={paste.error} title="Could not process the email" />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" loading={paste.isPending}>
            Process email
          </Button>
        </div>
        <div aria-live="polite" data-testid="email-paste-outcome">
          {result && !paste.isPending && (
            <div className="space-y-1 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-800 ring-1 ring-slate-200 ring-inset">
              <p>
                <span className="font-medium">{OUTCOME[result.outcome] ?? result.outcome}</span>
                {result.reason && <> {result.reason}</>}
              </p>
              {conversation !== null && (
                <Link
                  prefetch={false}
                  href={`/inbox${inboxSearch({ ...DEFAULT_FILTER, selected: conversation })}`}
                  className="font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  Open conversation #{conversation} in the Inbox
                </Link>
              )}
            </div>
          )}
        </div>
      </form>
    </SectionCard>
  );
}
