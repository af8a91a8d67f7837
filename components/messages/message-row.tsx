"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { cleanUserText, UserText } from "@/components/ui/user-text";
import { formatCount } from "@/lib/client/format";
import type { Message, MessagesView, MessageStatus } from "@/lib/client/messages-types";
import { isPendingCopy } from "@/lib/client/use-duplicate-message";
import { KIND_LABEL, rate, STATUS_LABEL, triggerSummary } from "./message-format";

const STATUS_CLASS: Record<MessageStatus, string> = {
  active: "bg-emerald-50 text-emerald-800 ring-emerald-600/30",
  paused: "bg-amber-50 text-amber-900 ring-amber-600/30",
  archived: "bg-slate-100 text-slate-700 ring-slate-500/30",
};

export const ACTION_VERB: Record<MessageStatus, string> = {
  active: "Resume",
  paused: "Pause",
  archived: "Archive",
};

interface RowProps {
  m: Message;
  view: MessagesView;
  /** The list's messages by ID, to name the message a chained trigger listens to. */
  names: Map<string, string>;
  error: string | undefined;
  onStatus: (status: MessageStatus) => void;
  onDuplicate: () => void;
}

/** One message of the list: its name (a link to its page), kind, status, trigger, figures and actions. */
export function MessageRow({ m, view, names, error, onStatus, onDuplicate }: RowProps) {
  const id = String(m.id);
  const pending = isPendingCopy(m);
  const t = triggerSummary(m.trigger);
  const f = m.figures;
  const actions: MessageStatus[] =
    view === "archived" ? ["paused"] : [m.status === "active" ? "paused" : "active", "archived"];
  const num = "px-3 py-2.5 text-right tabular-nums";
  return (
    <tr data-message-id={id} className="align-top">
      <th scope="row" className="px-3 py-2.5 text-left font-medium">
        {pending ? (
          <span className="text-slate-600">
            <UserText>{m.name}</UserText> <span className="text-xs font-normal">(copying…)</span>
          </span>
        ) : (
          <Link
            prefetch={false}
            href={`/messages/${id}`}
            className="text-brand-700 hover:underline focus-visible:rounded focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <UserText>{m.name}</UserText>
          </Link>
        )}
      </th>
      <td className="px-3 py-2.5 whitespace-nowrap">{KIND_LABEL[m.kind]}</td>
      <td className="px-3 py-2.5">
        <span
          className={cn(
            "inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset",
            STATUS_CLASS[m.status],
          )}
        >
          {STATUS_LABEL[m.status]}
        </span>
      </td>
      <td className="max-w-72 px-3 py-2.5 break-words">
        {t ? (
          <>
            <code className="text-xs">
              <UserText>{t.event}</UserText>
            </code>
            {t.url && (
              <span className="block text-xs text-slate-600">
                on{" "}
                <code>
                  <UserText>{t.url}</UserText>
                </code>
              </span>
            )}
            {t.message && (
              <span className="block text-xs text-slate-600">
                of <UserText>{names.get(t.message) ?? `message ${t.message}`}</UserText>
              </span>
            )}
            {t.stay && (
              <span className="block text-xs text-slate-600">
                {t.stay === "page" ? "while still on the page" : "while still on the site"}
              </span>
            )}
          </>
        ) : (
          "—"
        )}
      </td>
      <td className={num}>{formatCount(f.sent)}</td>
      <td className={num}>{rate(f.read, f.sent)}</td>
      <td className={num}>{rate(f.replied, f.sent)}</td>
      <td className={num}>{formatCount(f.goal)}</td>
      <td className="px-3 py-2">
        <div className="flex justify-end gap-1">
          {actions.map((status, i) => {
            const verb = view === "archived" ? "Restore" : ACTION_VERB[status];
            // Keyed by place: Pause becomes Resume on the same button, which keeps the focus.
            return (
              <Button
                key={i}
                size="sm"
                variant="secondary"
                disabled={pending}
                aria-label={`${verb} ${cleanUserText(m.name)}`}
                onClick={() => onStatus(status)}
              >
                {verb}
              </Button>
            );
          })}
          <Button
            size="sm"
            variant="ghost"
            disabled={pending}
            aria-label={`Duplicate ${cleanUserText(m.name)}`}
            onClick={onDuplicate}
          >
            Duplicate
          </Button>
        </div>
        {error && (
          <p role="alert" className="mt-1 text-right text-xs text-red-700">
            {error}
          </p>
        )}
      </td>
    </tr>
  );
}
