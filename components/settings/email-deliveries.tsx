"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Spinner } from "@/components/ui/spinner";
import { Time } from "@/components/ui/time";
import { UserText } from "@/components/ui/user-text";
import type { EmailKind, EmailState } from "@/lib/client/settings-types";
import { useEmailDeliveries } from "@/lib/client/use-email-deliveries";
import { EMAIL_STATES } from "@/lib/email/schemas";
import { EmailPreview } from "./email-preview";
import { SectionCard } from "./section-card";

const STATE_LABEL: Record<EmailState, string> = {
  queued: "queued",
  sent: "sent",
  deferred: "deferred",
  bounced: "bounced",
  failed: "failed",
  not_sent: "not sent",
};

const STATE_STYLE: Record<EmailState, string> = {
  queued: "bg-sky-50 text-sky-800 ring-sky-200",
  sent: "bg-emerald-50 text-emerald-700 ring-emerald-200",
  deferred: "bg-amber-50 text-amber-800 ring-amber-200",
  bounced: "bg-red-50 text-red-700 ring-red-200",
  failed: "bg-red-50 text-red-700 ring-red-200",
  not_sent: "bg-slate-100 text-slate-700 ring-slate-300",
};

const KIND_LABEL: Record<EmailKind, string> = {
  continuity: "Reply to visitor",
  transcript: "Transcript",
  operator_unread: "Unread message",
  operator_mention: "Mention",
  operator_assigned: "Assignment",
  message: "Message",
  rating_request: "Rating request",
};

function StateBadge({ state }: { state: EmailState }) {
  return (
    <span
      className={cn(
        "rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset",
        STATE_STYLE[state],
      )}
    >
      {STATE_LABEL[state]}
    </span>
  );
}

const selectClass =
  "h-8 rounded-md bg-white px-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600";

const HEADINGS = ["Kind", "To", "Subject", "State", "Attempts", "Next try", "Last error", "Created"];

/** Every email the app composed, newest first, each opening as it was composed. */
export function EmailDeliveries({ appId }: { appId: string }) {
  const [state, setState] = useState<EmailState | "">("");
  const deliveries = useEmailDeliveries(appId, state ? { state } : {});
  const [open, setOpen] = useState<string | null>(null);
  const rows = deliveries.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <SectionCard
      title="Delivery log"
      titleId="email-deliveries-title"
      description="The emails the app composed, newest first. Open one to see it as it was sent."
      actions={
        <div className="flex items-center gap-2">
          <label className="flex items-center gap-1.5 text-sm text-slate-700">
            State
            <select
              className={selectClass}
              value={state}
              onChange={(e) => setState(EMAIL_STATES.find((s) => s === e.target.value) ?? "")}
            >
              <option value="">All</option>
              {EMAIL_STATES.map((s) => (
                <option key={s} value={s}>
                  {STATE_LABEL[s]}
                </option>
              ))}
            </select>
          </label>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => void deliveries.refetch()}
            loading={deliveries.isFetching && !deliveries.isFetchingNextPage}
          >
            Refresh
          </Button>
        </div>
      }
    >
      <div className="space-y-3">
        {deliveries.isPending ? (
          <Spinner label="Loading the delivery log" />
        ) : rows.length === 0 && deliveries.isError ? (
          <ErrorAlert error={deliveries.error} title="Can’t load the delivery log" />
        ) : rows.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="email-log-empty">
            {state
              ? `No emails with the state “${STATE_LABEL[state]}”.`
              : "No emails yet. Replies, transcripts and operator notices are listed here as the app composes them."}
          </p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="min-w-full text-left text-sm" data-testid="email-log">
              <thead className="bg-slate-50 text-xs text-slate-600">
                <tr>
                  {HEADINGS.map((h) => (
                    <th key={h} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((e) => {
                  const id = String(e.id);
                  return (
                    <tr key={id} data-testid="email-row" data-state={e.state}>
                      <td className="px-3 py-2 whitespace-nowrap text-slate-800">{KIND_LABEL[e.kind]}</td>
                      <td className="max-w-48 truncate px-3 py-2 text-slate-800" title={e.to}>
                        <UserText>{e.to}</UserText>
                      </td>
                      <td className="max-w-64 px-3 py-2">
                        {/* The subject is the row's one control: it opens the email. */}
                        <button
                          type="button"
                          onClick={() => setOpen(id)}
                          className="block max-w-full truncate rounded text-left font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
                          title={e.subject}
                        >
                          <span className="sr-only">Open the email </span>
                          <UserText>{e.subject || "(no subject)"}</UserText>
                        </button>
                      </td>
                      <td className="px-3 py-2">
                        <StateBadge state={e.state} />
                      </td>
                      <td className="px-3 py-2 text-slate-800">{e.attempts}</td>
                      <td className="px-3 py-2 whitespace-nowrap text-slate-800">
                        {/* Only a deferred email is tried again; for the others the time means nothing. */}
                        {e.state === "deferred" ? <Time seconds={e.next_attempt} /> : "—"}
                      </td>
                      <td className="max-w-xs px-3 py-2">
                        {e.last_error ? (
                          <span className="block truncate text-xs text-red-700" title={e.last_error}>
                            {e.last_error}
                          </span>
                        ) : (
                          <span className="text-slate-400">—</span>
                        )}
                      </td>
                      <td className="px-3 py-2 whitespace-nowrap text-slate-600">
                        <Time seconds={e.created} short />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {deliveries.hasNextPage && (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void deliveries.fetchNextPage()}
            loading={deliveries.isFetchingNextPage}
          >
            Load more
          </Button>
        )}
        {/* A failed refresh or next page keeps the rows already shown. */}
        {rows.length > 0 && deliveries.isError && (
          <ErrorAlert error={deliveries.error} title="Can’t load the delivery log" />
        )}
      </div>
      {open !== null && <EmailPreview appId={appId} emailId={open} onClose={() => setOpen(null)} />}
    </SectionCard>
  );
}
