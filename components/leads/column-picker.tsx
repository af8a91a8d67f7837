"use client";

import { useCombobox } from "downshift";
import { useEffect, useRef, useState } from "react";
import { cn } from "@/components/ui/cn";
import type { CatalogProp } from "@/lib/client/leads-types";
import { useRefreshPropCatalog } from "@/lib/client/use-refresh-prop-catalog";
import { matchesQuery, OPTION_CLASS, POPUP_CLASS, SHOWN_MAX } from "./picker-parts";

const MAX_COLUMNS = 20;

/**
 * Extra columns: any custom or event prop, remembered in this browser. A combobox whose listbox is multi-select:
 * Enter or a click toggles the highlighted prop and the list stays open; Escape closes it.
 */
export function ColumnPicker({
  catalog,
  value,
  onChange,
}: {
  catalog: CatalogProp[];
  value: string[];
  onChange: (next: string[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const inputRef = useRef<HTMLInputElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const choices = catalog.filter((p) => p.kind !== "system");
  const matching = choices.filter((p) => matchesQuery(query, p.label, p.name));
  const shown = matching.slice(0, SHOWN_MAX);
  const toggle = (name: string) =>
    onChange(value.includes(name) ? value.filter((n) => n !== name) : [...value, name].slice(0, MAX_COLUMNS));
  const fresh = useRefreshPropCatalog();
  const T = useCombobox.stateChangeTypes;
  const cb = useCombobox<CatalogProp>({
    items: shown,
    itemToString: (p) => p?.label ?? "",
    itemToKey: (p: CatalogProp | null) => p?.name,
    isOpen: open,
    selectedItem: null,
    // The input's value stays downshift's (controlled, keystrokes typed quickly could be lost); the filter follows.
    onInputValueChange: ({ inputValue }) => setQuery(inputValue),
    onIsOpenChange: ({ isOpen, type }) => {
      setOpen(isOpen);
      if (isOpen) fresh.onOpen();
      // Escape hands the focus back to the button it came from (the input is hidden with the list).
      if (!isOpen && type === T.InputKeyDownEscape) buttonRef.current?.focus();
    },
    onStateChange: ({ type, selectedItem }) => {
      if ((type === T.InputKeyDownEnter || type === T.ItemClick) && selectedItem) toggle(selectedItem.name);
    },
    stateReducer: (state, { type, changes }) =>
      type === T.InputKeyDownEnter || type === T.ItemClick
        ? { ...changes, isOpen: true, highlightedIndex: state.highlightedIndex, inputValue: state.inputValue }
        : changes.isOpen === false
          ? { ...changes, inputValue: "" }
          : changes,
  });
  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);
  const missed = open && query.trim() !== "" && matching.length === 0;
  useEffect(() => {
    if (missed) fresh.onMiss(query.trim());
  }, [missed, query, fresh]);
  return (
    <div className="relative">
      <button
        type="button"
        {...cb.getToggleButtonProps({ ref: buttonRef, tabIndex: 0 })}
        className="inline-flex h-8 cursor-pointer items-center rounded-md px-2.5 text-sm font-medium text-slate-800 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        Columns{value.length ? ` (+${value.length})` : ""}
      </button>
      <div className={cn(POPUP_CLASS, "right-0 left-auto w-72", !open && "hidden")}>
        <label {...cb.getLabelProps()} className="sr-only">
          Search columns
        </label>
        <div className="p-2">
          <input
            {...cb.getInputProps({ ref: inputRef, placeholder: "Search properties…", spellCheck: false })}
            className="h-8 w-full rounded-md bg-white px-2 text-sm text-slate-900 ring-1 ring-slate-300 ring-inset focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
          />
        </div>
        <div
          {...cb.getMenuProps({ "aria-label": "Columns", "aria-multiselectable": true })}
          className="max-h-72 overflow-auto border-t border-slate-100 py-1"
        >
          {open &&
            shown.map((p, i) => {
              const on = value.includes(p.name);
              return (
                <div
                  key={p.name}
                  {...cb.getItemProps({ item: p, index: i, "aria-selected": on })}
                  className={cn(OPTION_CLASS, cb.highlightedIndex === i && "bg-brand-50")}
                >
                  <span
                    aria-hidden
                    className={cn(
                      "grid size-4 shrink-0 place-items-center rounded-sm text-[10px] text-white ring-1 ring-inset",
                      on ? "bg-brand-600 ring-brand-600" : "bg-white ring-slate-400",
                    )}
                  >
                    {on ? "✓" : ""}
                  </span>
                  <span className="truncate">{p.label}</span>
                </div>
              );
            })}
        </div>
        {open && (
          <p className="border-t border-slate-100 px-3 py-1.5 text-xs text-slate-500" aria-live="polite">
            {choices.length === 0
              ? "No custom or event properties yet."
              : matching.length === 0
                ? "No property matches."
                : matching.length > shown.length
                  ? `${shown.length} of ${matching.length} shown: type to narrow.`
                  : `${value.length} of ${MAX_COLUMNS} columns chosen`}
          </p>
        )}
      </div>
    </div>
  );
}
