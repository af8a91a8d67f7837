"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { isSnoozed } from "@/lib/client/inbox/filters";
import type { Actor, Conversation } from "@/lib/client/inbox/types";
import type { AdminMember } from "@/lib/client/settings-types";
import type { ConversationAction } from "@/lib/client/inbox/use-conversation-action";
import { cleanUserText, UserText } from "@/components/ui/user-text";
import { useAvailability } from "@/lib/client/use-availability";
import { useCurrentApp } from "@/lib/client/use-current-app";
import { statusOf } from "@/components/panel/availability-dot";
import { dateTimeInputValue, formatDateTime } from "@/lib/client/format";
import { visitorName } from "./format";

const control =
  "h-8 min-w-0 rounded-md bg-white px-2 text-sm text-slate-800 ring-1 ring-slate-300 ring-inset focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none";

function snoozeOptions(now = new Date()): { label: string; until: number }[] {
  const at = (d: Date) => Math.floor(d.getTime() / 1000);
  const tomorrow = new Date(now);
  tomorrow.setDate(now.getDate() + 1);
  tomorrow.setHours(9, 0, 0, 0);
  const week = new Date(now);
  week.setDate(now.getDate() + ((8 - now.getDay()) % 7 || 7));
  week.setHours(9, 0, 0, 0);
  return [
    { label: "1 hour", until: at(now) + 3600 },
    { label: "4 hours", until: at(now) + 4 * 3600 },
    { label: "Tomorrow 9:00", until: at(tomorrow) },
    { label: "Next Monday 9:00", until: at(week) },
  ];
}

interface HeaderProps {
  conversation: Conversation;
  admins: AdminMember[];
  me: Actor;
  onAction: (a: ConversationAction) => void;
  error: string | null;
  onBack?: () => void;
  onDetails?: () => void;
}

export function ConversationHeader({
  conversation: c,
  admins,
  me,
  onAction,
  error,
  onBack,
  onDetails,
}: HeaderProps) {
  const id = useId();
  const availability = useAvailability(String(useCurrentApp().app?.id ?? ""));
  const [tag, setTag] = useState("");
  const [custom, setCustom] = useState("");
  const snoozed = isSnoozed(c, Date.now() / 1000);
  const asActor = (a: AdminMember): Actor => ({ id: a.id, name: a.name, avatar: a.avatar, type: "admin" });
  const addTag = () => {
    const t = tag.trim();
    if (!t || t.includes(",")) return;
    onAction({ kind: "tag", tag: t, add: true });
    setTag("");
  };

  const mine = String(c.assignee?.id ?? "") === String(me.id);
  const status = c.closed ? "Closed" : snoozed ? `Snoozed until ${formatDateTime(c.delayed_until!)}` : "Open";

  // Two rows at most: the thread gets the height. Every control keeps its place whatever the state (a disabled
  // "Assign to me" rather than none), so a double click never lands on the control that moved in under it.
  return (
    <header className="border-b border-slate-200 bg-white px-4 py-2" data-testid="conversation-header">
      <div className="flex items-center gap-2">
        {onBack && (
          <Button size="sm" variant="ghost" onClick={onBack} className="md:hidden">
            ← Conversations
          </Button>
        )}
        <h2
          className="min-w-0 flex-1 truncate text-base font-semibold text-slate-900"
          data-testid="thread-title"
          title={`${cleanUserText(visitorName(c.user, c.id))} · ${status}`}
        >
          <UserText>{visitorName(c.user, c.id)}</UserText>{" "}
          <span className="ml-1 text-xs font-normal text-slate-500">{status}</span>
        </h2>
        {snoozed ? (
          <Button size="sm" variant="secondary" onClick={() => onAction({ kind: "delay", until: null })}>
            Wake now
          </Button>
        ) : (
          <>
            <label htmlFor={`${id}-snooze`} className="sr-only">
              Snooze
            </label>
            <select
              id={`${id}-snooze`}
              className={`${control} w-28`}
              value=""
              onChange={(e) => {
                if (e.target.value === "custom") {
                  setCustom(dateTimeInputValue(Date.now() / 1000 + 3600));
                  return;
                }
                const until = Number(e.target.value);
                if (until > 0) onAction({ kind: "delay", until });
              }}
            >
              <option value="">Snooze…</option>
              {snoozeOptions().map((o) => (
                <option key={o.label} value={o.until}>
                  {o.label}
                </option>
              ))}
              <option value="custom">Pick a time…</option>
            </select>
          </>
        )}
        {c.closed ? (
          <Button size="sm" variant="secondary" onClick={() => onAction({ kind: "reopen" })}>
            Reopen
          </Button>
        ) : (
          <Button size="sm" onClick={() => onAction({ kind: "close" })}>
            Close
          </Button>
        )}
        {onDetails && (
          <Button size="sm" variant="secondary" onClick={onDetails} className="xl:hidden">
            Visitor details
          </Button>
        )}
      </div>
      {custom && !snoozed && (
        <div className="mt-1.5 flex items-center gap-1">
          <label htmlFor={`${id}-until`} className="sr-only">
            Snooze until
          </label>
          <input
            id={`${id}-until`}
            type="datetime-local"
            className={control}
            value={custom}
            onChange={(e) => setCustom(e.target.value)}
          />
          <Button
            size="sm"
            variant="secondary"
            onClick={() => {
              const until = Math.floor(new Date(custom).getTime() / 1000);
              if (until > Date.now() / 1000) {
                onAction({ kind: "delay", until });
                setCustom("");
              }
            }}
          >
            Snooze
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setCustom("")}>
            Cancel
          </Button>
        </div>
      )}
      <div className="mt-1.5 flex flex-wrap items-center gap-1.5" data-testid="thread-tags">
        <label htmlFor={`${id}-assignee`} className="sr-only">
          Assignee
        </label>
        <select
          id={`${id}-assignee`}
          className={`${control} w-32`}
          value={c.assignee ? String(c.assignee.id) : ""}
          onChange={(e) => {
            const a = admins.find((x) => String(x.id) === e.target.value);
            onAction({ kind: "assign", admin: a ? asActor(a) : null });
          }}
        >
          <option value="">Unassigned</option>
          {admins.map((a) => (
            <option key={String(a.id)} value={String(a.id)}>
              {cleanUserText(a.name)}
              {statusOf(availability.data, String(a.id)) === "away" ? " (Away)" : ""}
            </option>
          ))}
          {c.assignee && !admins.some((a) => String(a.id) === String(c.assignee!.id)) && (
            <option value={String(c.assignee.id)}>{cleanUserText(c.assignee.name)}</option>
          )}
        </select>
        <Button
          size="sm"
          variant="secondary"
          disabled={mine}
          title={mine ? "Assigned to you" : undefined}
          onClick={() => onAction({ kind: "assign", admin: me })}
        >
          Assign to me
        </Button>
        {c.tags.map((t) => (
          <span
            key={t}
            className="flex items-center gap-0.5 rounded bg-slate-100 py-0.5 pl-1.5 text-xs text-slate-800"
          >
            <UserText>{t}</UserText>
            <button
              type="button"
              className="rounded px-1 text-slate-500 hover:text-slate-900"
              aria-label={`Remove tag ${cleanUserText(t)}`}
              onClick={() => onAction({ kind: "tag", tag: t, add: false })}
            >
              ✕
            </button>
          </span>
        ))}
        <form
          className="flex items-center gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            addTag();
          }}
        >
          <label htmlFor={`${id}-tag`} className="sr-only">
            Add a tag
          </label>
          <input
            id={`${id}-tag`}
            className={`${control} w-[5.5rem]`}
            placeholder="Add a tag"
            value={tag}
            maxLength={255}
            onChange={(e) => setTag(e.target.value)}
          />
          <Button
            type="submit"
            size="sm"
            variant="secondary"
            aria-label="Add tag"
            title="Add tag"
            className="px-2"
            disabled={!tag.trim() || tag.includes(",")}
          >
            +
          </Button>
        </form>
      </div>
      {error && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </header>
  );
}
