"use client";

import { useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useSavedReplies } from "@/lib/client/saved-replies/use-saved-replies";
import { expandPlaceholders, type Placeholder } from "@/lib/saved-replies/placeholders";
import type { SavedReply } from "@/lib/saved-replies/schemas";
import { matchSavedReplies, slashQueryAt, type SlashQuery } from "./slash-query";

export type PlaceholderValues = Partial<Record<Placeholder, string | null>>;

/**
 * The composer's `/` list: a listbox the textarea drives with aria-activedescendant (focus stays in the text).
 * It opens on a `/` at the start of a word, filters as the operator types, and Enter or Tab inserts the chosen
 * reply with its placeholders filled in; Escape closes it until the next `/`.
 */
export function useSavedReplyPicker(opts: {
  appId: string;
  values: PlaceholderValues;
  setBody: (body: string) => void;
}) {
  const { appId, values, setBody } = opts;
  const replies = useSavedReplies(appId);
  const [slash, setSlash] = useState<SlashQuery | null>(null);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const el = useRef<HTMLTextAreaElement | null>(null);
  /** Where the caret goes once React has written an inserted reply: the text it wrote and the offset. */
  const caretAfter = useRef<{ value: string; caret: number } | null>(null);
  const listboxId = useId();

  // In the commit that wrote the inserted text, before the browser takes another key: a frame later (as
  // requestAnimationFrame did) the operator may already have typed on, and the caret would jump back into it.
  useLayoutEffect(() => {
    const t = el.current;
    const pending = caretAfter.current;
    if (!t || !pending) return;
    caretAfter.current = null;
    if (t.value !== pending.value) return;
    t.focus();
    t.setSelectionRange(pending.caret, pending.caret);
  });

  const open = slash !== null && slash.start !== dismissedAt;
  const options = useMemo(
    () => (open && slash ? matchSavedReplies(replies.data ?? [], slash.query) : []),
    [open, slash, replies.data],
  );
  const optionId = (i: number) => `${listboxId}-option-${i}`;

  /** Call on every change and caret move of the textarea. */
  const track = (t: HTMLTextAreaElement) => {
    el.current = t;
    const next = slashQueryAt(t.value, t.selectionStart);
    if (next?.query !== slash?.query || next?.start !== slash?.start) setActive(0);
    if (!next) setDismissedAt(null);
    setSlash(next);
  };

  const insert = (reply: SavedReply) => {
    const t = el.current;
    if (!t || !slash) return;
    const text = expandPlaceholders(reply.body, values);
    const value = t.value.slice(0, slash.start) + text + t.value.slice(slash.end);
    caretAfter.current = { value, caret: slash.start + text.length };
    setBody(value);
    setSlash(null);
  };

  const close = () => setSlash(null);

  /** True when the key was the list's (the composer must not also act on it). */
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || !slash) return false;
    if (e.key === "Escape") {
      setDismissedAt(slash.start);
      return true;
    }
    if (!options.length) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (i + step + options.length) % options.length);
      return true;
    }
    if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
      const chosen = options[active];
      if (chosen) insert(chosen);
      return true;
    }
    return false;
  };

  return {
    open,
    options,
    active,
    listboxId,
    optionId,
    loading: replies.isPending,
    error: replies.error,
    query: slash?.query ?? "",
    track,
    insert,
    close,
    onKeyDown,
    setActive,
    /** The textarea's side of the pairing. */
    inputProps: {
      "aria-autocomplete": "list" as const,
      "aria-controls": open && options.length ? listboxId : undefined,
      "aria-activedescendant": open && options[active] ? optionId(active) : undefined,
    },
  };
}

export type SavedReplyPicker = ReturnType<typeof useSavedReplyPicker>;
