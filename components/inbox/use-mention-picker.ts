"use client";

import { useCombobox } from "downshift";
import { useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { unmatchedMentions } from "@/lib/notifications/mentions";
import { useAdmins } from "@/lib/client/use-admins";
import { useMe } from "@/lib/client/use-me";
import {
  matchOperators,
  mentionHandle,
  mentionQueryAt,
  type MentionOperator,
  type MentionQuery,
} from "./mention-query";

/**
 * The note's `@` list: the app's operators, filtered as the operator types after an `@`, picked with the arrows and
 * Enter (or Tab, or a click); Escape closes it until the next `@`. downshift keeps the list's state (highlight,
 * option IDs, item clicks) as in the Leads pickers; the keys come from the textarea, which keeps the focus and also
 * serves the `/` list, so only they are taken from it. Picking inserts `@Name` as the server parses mentions.
 */
export function useMentionPicker(opts: { appId: string; enabled: boolean; setBody: (body: string) => void }) {
  const { appId, enabled, setBody } = opts;
  // The Inbox has both read already: the same cache entries, no request of their own.
  const admins = useAdmins(appId);
  const meId = String(useMe().data?.admin.id ?? "");
  const operators = useMemo(
    () =>
      (admins.data ?? []).map((a): MentionOperator => ({ id: String(a.id), name: a.name, email: a.email })),
    [admins.data],
  );
  const [at, setAt] = useState<MentionQuery | null>(null);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const el = useRef<HTMLTextAreaElement | null>(null);
  const caretAfter = useRef<{ value: string; caret: number } | null>(null);

  useLayoutEffect(() => {
    const t = el.current;
    const pending = caretAfter.current;
    if (!t || !pending) return;
    caretAfter.current = null;
    if (t.value !== pending.value) return;
    t.focus();
    t.setSelectionRange(pending.caret, pending.caret);
  });

  const others = useMemo(() => operators.filter((o) => o.id !== meId), [operators, meId]);
  const searching = enabled && at !== null && at.start !== dismissedAt;
  const items = useMemo(
    () => (searching && at ? matchOperators(others, at.query) : []),
    [searching, at, others],
  );
  const open = items.length > 0;

  const insert = (op: MentionOperator) => {
    const t = el.current;
    if (!t || !at) return;
    const text = `${mentionHandle(op, operators)} `;
    const value = t.value.slice(0, at.start) + text + t.value.slice(at.end);
    caretAfter.current = { value, caret: at.start + text.length };
    setBody(value);
    // The inserted `@Ann ` must not reopen the list (it would offer an `Ann Lee`): closed until the next `@`.
    setDismissedAt(at.start);
    setAt(null);
  };

  const cb = useCombobox<MentionOperator>({
    items,
    isOpen: open,
    highlightedIndex: open ? Math.min(active, items.length - 1) : -1,
    selectedItem: null,
    itemToString: (o) => o?.name ?? "",
    itemToKey: (o: MentionOperator | null) => o?.id,
    onHighlightedIndexChange: ({ highlightedIndex, type }) => {
      if (type === useCombobox.stateChangeTypes.ItemMouseMove && highlightedIndex >= 0)
        setActive(highlightedIndex);
    },
    onSelectedItemChange: ({ selectedItem }) => {
      if (selectedItem) insert(selectedItem);
    },
    onIsOpenChange: ({ isOpen }) => {
      // A click outside the textarea and the list closes it, as Escape does.
      if (!isOpen && at) setDismissedAt(at.start);
    },
  });

  /** Call on every change and caret move of the textarea. */
  const track = (t: HTMLTextAreaElement) => {
    el.current = t;
    const next = enabled ? mentionQueryAt(t.value, t.selectionStart) : null;
    if (next?.query !== at?.query || next?.start !== at?.start) setActive(0);
    if (!next) setDismissedAt(null);
    setAt(next);
  };

  /** True when the key was the list's (the composer must not also act on it). */
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || !at) return false;
    if (e.key === "Escape") {
      setDismissedAt(at.start);
      return true;
    }
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (Math.min(i, items.length - 1) + step + items.length) % items.length);
      return true;
    }
    if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
      const chosen = items[Math.min(active, items.length - 1)];
      if (chosen) insert(chosen);
      return true;
    }
    return false;
  };

  /**
   * The textarea's side while the list is open: the pairing's ARIA. downshift gets no ref to the textarea (its
   * props are typed for an input), so a click in the text counts as outside the list and closes it, as a caret
   * moved away from the `@` would.
   */
  const p = cb.getInputProps({}, { suppressRefError: true });
  const inputProps = open
    ? {
        "aria-controls": p["aria-controls"],
        "aria-activedescendant": p["aria-activedescendant"],
        "aria-expanded": true,
      }
    : {};

  return {
    open,
    items,
    query: at?.query ?? "",
    cb,
    track,
    close: () => setAt(null),
    onKeyDown,
    inputProps,
    /** The `@handles` of a note that name nobody (checked before sending). */
    unmatched: (body: string) => (enabled ? unmatchedMentions(body, operators) : []),
  };
}

export type MentionPicker = ReturnType<typeof useMentionPicker>;
