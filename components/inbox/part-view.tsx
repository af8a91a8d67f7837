import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { isPending } from "@/lib/client/inbox/thread-cache";
import type { Attachment, ThreadPart } from "@/lib/client/inbox/types";
import { safeUrl } from "@/lib/client/safe-url";
import { cleanUserText, UserText } from "@/components/ui/user-text";
import { Time } from "@/components/ui/time";
import { formatDateTime } from "@/lib/client/format";
import { MailIcon } from "./conversation-emails";
import { isActor } from "./format";

const MESSAGE_TYPES = new Set(["reply_user", "reply_admin", "note", "article"]);

function who(p: ThreadPart, meId: string): string {
  if (!isActor(p.from)) return p.direction === "u2a" ? "Visitor" : "Automation";
  return String(p.from.id) === meId ? "You" : p.from.name;
}

/** One line for a state change: "You closed the conversation". */
export function systemText(p: ThreadPart, meId: string): string {
  const by = who(p, meId);
  const tag = typeof p.body_json?.tag === "string" ? p.body_json.tag : "";
  switch (p.type) {
    case "assigned": {
      if (!p.assignee) return `${by} unassigned the conversation`;
      const to = String(p.assignee.id);
      const self = isActor(p.from) && String(p.from.id) === to;
      const whom = self ? (to === meId ? "yourself" : "themselves") : to === meId ? "you" : p.assignee.name;
      return `${by} assigned the conversation to ${whom}`;
    }
    case "closed":
      return `${by} closed the conversation`;
    case "reopened":
      return `${by} reopened the conversation`;
    case "delayed": {
      const until = p.body_json?.delayed_until;
      return `${by} snoozed the conversation${typeof until === "number" ? ` until ${formatDateTime(until)}` : ""}`;
    }
    case "delay_cancelled":
      return `${by} woke the conversation`;
    case "tag_added":
      return `${by} added the tag “${tag}”`;
    case "tag_deleted":
      return `${by} removed the tag “${tag}”`;
    default:
      return `${by}: ${p.type.replace(/_/g, " ")}`;
  }
}

function AttachmentView({ a }: { a: Attachment }) {
  // The server's links are relative when PUBLIC_URL is unset.
  const url = safeUrl(a.url, { sitePath: true });
  const image = a.type === "image" || a.mime_type.startsWith("image/");
  if (!url) {
    return (
      <p className="text-xs text-slate-600" data-testid="attachment-name">
        <UserText>{a.filename}</UserText>
      </p>
    );
  }
  if (image) {
    return (
      <a href={url} target="_blank" rel="noopener noreferrer" className="block">
        {/* eslint-disable-next-line @next/next/no-img-element -- signed attachment URLs, not optimisable */}
        <img
          src={url}
          alt={cleanUserText(a.filename)}
          loading="lazy"
          className="max-h-60 max-w-full rounded-md bg-white"
          data-testid="attachment-image"
        />
      </a>
    );
  }
  return (
    <a
      href={url}
      download={cleanUserText(a.filename)}
      rel="noopener noreferrer"
      className="inline-flex max-w-full items-center gap-1.5 rounded-md bg-white/80 px-2 py-1 text-sm text-slate-800 underline ring-1 ring-slate-300"
      data-testid="attachment-file"
    >
      <span aria-hidden="true">📎</span>
      <span className="truncate" data-testid="attachment-name">
        <UserText>{a.filename}</UserText>
      </span>
      <span className="shrink-0 text-xs text-slate-500 no-underline">
        {Math.max(1, Math.round(a.size / 1024))} KB
      </span>
    </a>
  );
}

interface PartViewProps {
  part: ThreadPart;
  meId: string;
  clicked: number | undefined;
  onRetry: (randomId: number) => void;
  onDiscard: (randomId: number) => void;
}

export function PartView({ part: p, meId, clicked, onRetry, onDiscard }: PartViewProps) {
  if (!MESSAGE_TYPES.has(p.type)) {
    return (
      <li
        className="my-2 text-center text-xs text-slate-500"
        data-testid="part-system"
        data-part-type={p.type}
      >
        {systemText(p, meId)} · <Time seconds={p.created} short />
      </li>
    );
  }
  const mine = p.direction === "a2u";
  const note = p.type === "note";
  const pending = isPending(p);
  return (
    <li
      className={cn("my-2 flex flex-col", mine ? "items-end" : "items-start")}
      data-testid={note ? "part-note" : mine ? "part-admin" : "part-user"}
      data-pending={pending ? "true" : undefined}
    >
      <div
        className={cn(
          "max-w-[85%] rounded-2xl px-3.5 py-2 text-sm",
          note
            ? "bg-amber-50 text-amber-950 ring-1 ring-amber-300"
            : mine
              ? "bg-brand-600 text-white"
              : "bg-slate-100 text-slate-900",
          pending && !p.error && "opacity-70",
          pending && p.error && "ring-2 ring-red-500",
        )}
      >
        {note && (
          <p className="mb-1 text-xs font-semibold text-amber-800" data-testid="note-label">
            Note · visible to operators only
          </p>
        )}
        {p.body && (
          <p className="break-words whitespace-pre-wrap" data-testid="part-body">
            {p.body}
          </p>
        )}
        {p.attachments?.length ? (
          <div className="mt-1.5 flex flex-col gap-1.5">
            {p.attachments.map((a) => (
              <AttachmentView key={String(a.id)} a={a} />
            ))}
          </div>
        ) : null}
        {p.actions?.length ? (
          <ul className="mt-2 flex flex-wrap gap-1.5" aria-label="Quick replies">
            {p.actions.map((b, i) => (
              <li
                key={i}
                className={cn(
                  "rounded-full px-2.5 py-0.5 text-xs ring-1",
                  clicked === i
                    ? "bg-emerald-100 font-semibold text-emerald-900 ring-emerald-500"
                    : mine
                      ? "bg-white/15 text-white ring-white/50"
                      : "bg-white text-slate-700 ring-slate-300",
                )}
                data-testid={clicked === i ? "quick-reply-clicked" : "quick-reply"}
              >
                {b.body}
                {clicked === i && <span> ✓ chosen</span>}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <p className="mt-0.5 px-1 text-xs text-slate-500">
        {mine ? `${who(p, meId)} · ` : ""}
        {pending ? (
          p.error ? null : p.progress !== undefined ? (
            <span>
              Uploading {Math.round(p.progress * 100)}%
              <progress
                className="ml-1 h-1.5 w-16 align-middle"
                value={p.progress}
                max={1}
                aria-label="Upload progress"
              />
            </span>
          ) : (
            "Sending…"
          )
        ) : (
          <Time seconds={p.created} short />
        )}
        {p.sent_via === "email" && (
          <span data-testid="via-email" title="This message came in by email">
            {" · "}
            <MailIcon className="mr-0.5 align-[-2px]" />
            via email
          </span>
        )}
      </p>
      {pending && p.error && p.random_id !== null && (
        <div
          role="alert"
          className="mt-1 flex items-center gap-2 text-xs text-red-700"
          data-testid="send-error"
        >
          <span>Not sent: {p.error}</span>
          <Button size="sm" variant="secondary" onClick={() => onRetry(p.random_id)}>
            Retry
          </Button>
          <Button size="sm" variant="ghost" onClick={() => onDiscard(p.random_id)}>
            Discard
          </Button>
        </div>
      )}
    </li>
  );
}
