"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { usePopover } from "@/components/ui/use-popover";
import { cn } from "@/components/ui/cn";
import { cleanUserText, UserText } from "@/components/ui/user-text";
import type { Conversation } from "@/lib/client/inbox/types";
import type { ConversationAction } from "@/lib/client/inbox/use-conversation-action";
import { dateTimeInputValue } from "@/lib/client/format";

export const headerControl =
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

/**
 * The header's less frequent actions (snooze, tags) behind one button, so the header stays one row beside the
 * list and the visitor's column at 1280 px. A disclosure, not a menu: it holds fields. Escape or a click outside
 * closes it, and Escape hands the focus back to its button.
 */
export function HeaderMore({
  conversation: c,
  snoozed,
  onAction,
}: {
  conversation: Conversation;
  snoozed: boolean;
  onAction: (a: ConversationAction) => void;
}) {
  const id = useId();
  const [tag, setTag] = useState("");
  const [custom, setCustom] = useState("");
  const { open, setOpen, root, button, onKeyDown } = usePopover();
  const addTag = () => {
    const t = tag.trim();
    if (!t || t.includes(",")) return;
    onAction({ kind: "tag", tag: t, add: true });
    setTag("");
  };
  const snooze = (until: number) => {
    onAction({ kind: "delay", until });
    setOpen(false);
    button.current?.focus();
  };

  return (
    <div ref={root} className="relative shrink-0" onKeyDown={onKeyDown}>
      <Button
        ref={button}
        size="sm"
        variant="secondary"
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        aria-label={c.tags.length ? `Snooze and tags, ${c.tags.length} tags` : "Snooze and tags"}
        title="Snooze and tags"
        className="px-2"
        onClick={() => setOpen((o) => !o)}
        data-testid="header-more"
      >
        <span aria-hidden>⋯</span>
        {c.tags.length > 0 && (
          <span aria-hidden className="rounded bg-slate-100 px-1 text-xs text-slate-700">
            {c.tags.length}
          </span>
        )}
      </Button>
      <div
        id={`${id}-panel`}
        role="group"
        aria-label="Snooze and tags"
        className={cn(
          "absolute top-full right-0 z-20 mt-1 w-72 space-y-3 rounded-lg bg-white p-3 shadow-lg ring-1 ring-slate-200",
          !open && "hidden",
        )}
      >
        <div className="flex items-center gap-1.5">
          {snoozed ? (
            <Button size="sm" variant="secondary" onClick={() => onAction({ kind: "delay", until: null })}>
              Wake now
            </Button>
          ) : (
            <>
              <label htmlFor={`${id}-snooze`} className="text-sm text-slate-700">
                Snooze
              </label>
              <select
                id={`${id}-snooze`}
                className={cn(headerControl, "flex-1")}
                value=""
                onChange={(e) => {
                  if (e.target.value === "custom") {
                    setCustom(dateTimeInputValue(Date.now() / 1000 + 3600));
                    return;
                  }
                  const until = Number(e.target.value);
                  if (until > 0) snooze(until);
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
        </div>
        {custom && !snoozed && (
          <div className="flex items-center gap-1">
            <label htmlFor={`${id}-until`} className="sr-only">
              Snooze until
            </label>
            <input
              id={`${id}-until`}
              type="datetime-local"
              className={cn(headerControl, "flex-1")}
              value={custom}
              onChange={(e) => setCustom(e.target.value)}
            />
            <Button
              size="sm"
              variant="secondary"
              onClick={() => {
                const until = Math.floor(new Date(custom).getTime() / 1000);
                if (until > Date.now() / 1000) {
                  snooze(until);
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
        <div className="flex flex-wrap items-center gap-1.5" data-testid="thread-tags">
          {c.tags.length === 0 && <span className="text-xs text-slate-500">No tags.</span>}
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
        </div>
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
            className={cn(headerControl, "flex-1")}
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
    </div>
  );
}
