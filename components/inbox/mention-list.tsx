"use client";

import { cn } from "@/components/ui/cn";
import { UserText } from "@/components/ui/user-text";
import type { MentionPicker } from "./use-mention-picker";

/** The note's `@` list above the composer's text; the textarea keeps focus and drives it (use-mention-picker.ts). */
export function MentionList({ picker }: { picker: MentionPicker }) {
  const { cb, items, open } = picker;
  return (
    <div
      className={cn(
        "absolute inset-x-0 bottom-full z-20 mb-1 max-h-72 overflow-y-auto rounded-lg bg-white shadow-lg ring-1 ring-slate-200",
        !open && "hidden",
      )}
    >
      {open && (
        <p className="border-b border-slate-100 px-3 py-1.5 text-xs text-slate-500">
          Mention · ↑↓ to choose, Enter to insert, Esc to close
        </p>
      )}
      <ul
        {...cb.getMenuProps(
          { "aria-label": "Operators to mention", "aria-labelledby": undefined },
          { suppressRefError: true },
        )}
        className="py-1"
      >
        {open &&
          items.map((op, i) => (
            <li
              key={op.id}
              {...cb.getItemProps({ item: op, index: i })}
              data-testid="mention-option"
              className={cn(
                "cursor-pointer px-3 py-1.5 text-sm",
                i === cb.highlightedIndex ? "bg-brand-50 text-brand-900" : "text-slate-800",
              )}
            >
              <UserText className="font-medium">{op.name}</UserText>{" "}
              <span className="text-xs text-slate-500">{op.email}</span>
            </li>
          ))}
      </ul>
    </div>
  );
}
