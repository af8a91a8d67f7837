"use client";

import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { UserText } from "@/components/ui/user-text";
import type { SavedReplyPicker } from "./use-saved-reply-picker";

/** The `/` list above the composer's text; the textarea keeps focus and drives it (use-saved-reply-picker.ts). */
export function SavedReplyList({ picker }: { picker: SavedReplyPicker }) {
  if (!picker.open) return null;
  const { options, active } = picker;
  return (
    <div className="absolute inset-x-0 bottom-full z-20 mb-1 max-h-72 overflow-y-auto rounded-lg bg-white shadow-lg ring-1 ring-slate-200">
      <p className="border-b border-slate-100 px-3 py-1.5 text-xs text-slate-500">
        Saved replies · ↑↓ to choose, Enter to insert, Esc to close
      </p>
      {picker.loading ? (
        <p className="px-3 py-2 text-sm text-slate-600">Loading saved replies…</p>
      ) : picker.error ? (
        <p role="alert" className="px-3 py-2 text-sm text-red-700">
          Can’t load the saved replies.
        </p>
      ) : options.length === 0 ? (
        <p role="status" className="px-3 py-2 text-sm text-slate-600">
          No saved reply matches “/{picker.query}”.{" "}
          <Link href="/settings#saved-replies" className="text-brand-700 underline">
            Manage saved replies
          </Link>
        </p>
      ) : (
        <ul id={picker.listboxId} role="listbox" aria-label="Saved replies" className="py-1">
          {options.map((r, i) => (
            <li
              key={String(r.id)}
              id={picker.optionId(i)}
              role="option"
              aria-selected={i === active}
              // mousedown, not click: the textarea keeps focus and its caret.
              onMouseDown={(e) => {
                e.preventDefault();
                picker.insert(r);
              }}
              onMouseMove={() => picker.setActive(i)}
              className={cn(
                "cursor-pointer px-3 py-1.5 text-sm",
                i === active ? "bg-brand-50 text-brand-900" : "text-slate-800",
              )}
            >
              <span className="font-mono text-xs text-slate-600">/{r.shortcut}</span>{" "}
              <UserText className="font-medium">{r.title}</UserText>
              <span className="block truncate text-xs text-slate-500">{r.body}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
