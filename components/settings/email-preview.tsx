"use client";

import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Dialog, DialogTitle } from "@/components/ui/dialog";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Spinner } from "@/components/ui/spinner";
import { Tab, TabList, TabPanel, Tabs } from "@/components/ui/tabs";
import { Time } from "@/components/ui/time";
import { UserText } from "@/components/ui/user-text";
import type { EmailPreview as Email } from "@/lib/client/settings-types";
import { useEmailDelivery } from "@/lib/client/use-email-delivery";

const BODIES = ["text", "html"] as const;
type Body = (typeof BODIES)[number];

/** One email of the log as it was composed: its headers, and its text or its HTML. */
export function EmailPreview({
  appId,
  emailId,
  onClose,
}: {
  appId: string;
  emailId: string;
  onClose: () => void;
}) {
  const email = useEmailDelivery(appId, emailId);
  const closeRef = useRef<HTMLButtonElement>(null);

  return (
    <Dialog
      open
      onClose={onClose}
      initialFocus={closeRef}
      className="m-auto flex max-h-[calc(100%-2rem)] w-[calc(100%-2rem)] max-w-3xl flex-col rounded-xl bg-white shadow-xl"
      data-testid="email-preview"
    >
      <div className="flex items-start justify-between gap-3 border-b border-slate-200 px-5 py-4">
        <DialogTitle className="min-w-0 text-base font-semibold break-words text-slate-900">
          {email.data ? <UserText>{email.data.subject || "(no subject)"}</UserText> : "Email"}
        </DialogTitle>
        <Button ref={closeRef} variant="secondary" size="sm" onClick={onClose}>
          Close
        </Button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">
        {email.isPending ? (
          <Spinner label="Loading the email" />
        ) : email.isError ? (
          <ErrorAlert error={email.error} title="Can’t load this email" />
        ) : (
          <EmailBody email={email.data} />
        )}
      </div>
    </Dialog>
  );
}

function EmailBody({ email }: { email: Email }) {
  const [body, setBody] = useState<Body>(email.html ? "html" : "text");
  const headers: [string, string | null][] = [
    ["From", email.from],
    ["To", email.to],
    ["Reply-To", email.reply_to],
    ["Subject", email.subject],
    ["Message-ID", email.message_id],
  ];

  return (
    <div className="space-y-4">
      <dl className="grid gap-x-6 gap-y-1.5 text-sm sm:grid-cols-[max-content_1fr]">
        {headers.map(([name, value]) => (
          <div key={name} className="contents">
            <dt className="font-medium text-slate-600">{name}</dt>
            <dd className="min-w-0 break-all text-slate-900">
              {value ? <UserText>{value}</UserText> : <span className="text-slate-400">—</span>}
            </dd>
          </div>
        ))}
        <dt className="font-medium text-slate-600">Created</dt>
        <dd className="text-slate-900">
          <Time seconds={email.created} />
          {email.sent_at !== null && (
            <>
              {" "}
              · sent <Time seconds={email.sent_at} />
            </>
          )}
        </dd>
      </dl>

      <Tabs ids={BODIES} selected={body} onSelect={setBody}>
        <TabList label="Body" className="flex gap-1 border-b border-slate-200">
          {BODIES.map((b) => (
            <Tab
              key={b}
              id={b}
              className={(selected) =>
                cn(
                  "-mb-px border-b-2 px-3 py-2 text-sm font-medium",
                  "focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600",
                  selected
                    ? "border-brand-600 text-brand-700"
                    : "border-transparent text-slate-600 hover:text-slate-900",
                )
              }
            >
              {b === "text" ? "Text" : "HTML"}
            </Tab>
          ))}
        </TabList>
        <TabPanel tabIndex={0} className="focus-visible:outline-2 focus-visible:outline-brand-600">
          {body === "text" ? (
            <pre className="font-sans text-sm break-words whitespace-pre-wrap text-slate-900">
              {email.text || "(no text)"}
            </pre>
          ) : email.html ? (
            // An empty sandbox: the email's HTML runs no script and is of no origin (no cookies, no API).
            <iframe
              sandbox=""
              srcDoc={email.html}
              title="The email's HTML"
              referrerPolicy="no-referrer"
              className="h-[28rem] w-full rounded-lg border border-slate-200 bg-white"
            />
          ) : (
            <p className="text-sm text-slate-600">This email has no HTML part.</p>
          )}
        </TabPanel>
      </Tabs>
    </div>
  );
}
