"use client";

import { useCombobox } from "downshift";
import { useEffect, useId, useMemo, useState } from "react";
import { cn } from "@/components/ui/cn";
import type { CatalogProp } from "@/lib/client/leads-types";
import { useRefreshPropCatalog } from "@/lib/client/use-refresh-prop-catalog";
import { propLabel } from "./format";
import { matchesQuery, OPTION_CLASS, POPUP_CLASS, SHOWN_MAX } from "./picker-parts";

const TYPE_LABEL: Record<string, string> = {
  string: "text",
  integer: "number",
  float: "number",
  boolean: "yes/no",
  datetime: "date",
  list: "list",
};

interface Option {
  name: string;
  label: string;
  group: string;
  hint: string;
}

const LISTS: Option[] = [
  { name: "$tag", label: "Tag", group: "Lists", hint: "" },
  { name: "$segment", label: "Segment", group: "Lists", hint: "" },
];
const GROUP_OF: Record<CatalogProp["kind"], string> = { system: "System", custom: "Custom", event: "Events" };
const GROUP_ORDER = ["Lists", "System", "Custom", "Events"];

function optionsOf(catalog: CatalogProp[]): Option[] {
  const props = catalog.map((p) => ({
    name: p.name,
    label: propLabel(p.name, p.label),
    group: GROUP_OF[p.kind],
    hint: TYPE_LABEL[p.type] ?? p.type,
  }));
  return [...LISTS, ...props].sort((a, b) => GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group));
}

/**
 * The filter's property: a combobox over the props catalog (hundreds of custom props), typed to filter, grouped as
 * the catalog kinds them. At most SHOWN_MAX options are rendered: past that, typing narrows faster than scrolling.
 */
export function PropertyPicker({
  value,
  catalog,
  label,
  className,
  onChange,
}: {
  value: string;
  catalog: CatalogProp[];
  label: string;
  className?: string;
  onChange: (name: string) => void;
}) {
  const all = useMemo(() => optionsOf(catalog), [catalog]);
  const [query, setQuery] = useState("");
  const matching = useMemo(() => all.filter((o) => matchesQuery(query, o.label, o.name)), [all, query]);
  const shown = matching.slice(0, SHOWN_MAX);
  // A filter saved with a prop the sample no longer holds still shows (and keeps) its key.
  const selected =
    all.find((o) => o.name === value) ?? (value ? { ...LISTS[0]!, name: value, label: value } : null);
  const groupId = useId();
  const fresh = useRefreshPropCatalog();
  const cb = useCombobox<Option>({
    items: shown,
    itemToString: (o) => o?.label ?? "",
    // The label too: the catalog arrives after the filter, and its label must then replace the bare key.
    itemToKey: (o: Option | null) => (o ? `${o.name}\u0000${o.label}` : null),
    selectedItem: selected,
    onSelectedItemChange: ({ selectedItem }) => {
      if (selectedItem && selectedItem.name !== value) onChange(selectedItem.name);
    },
    onInputValueChange: ({ inputValue, type }) => {
      if (type === useCombobox.stateChangeTypes.InputChange) setQuery(inputValue);
    },
    onIsOpenChange: ({ isOpen }) => {
      if (!isOpen) setQuery("");
      else fresh.onOpen();
    },
    stateReducer: (state, { type, changes }) => {
      const T = useCombobox.stateChangeTypes;
      // Leaving the field or Escape on a closed list never changes nor clears the property: it only restores its name.
      if (type === T.InputBlur || (type === T.InputKeyDownEscape && !state.isOpen))
        return { ...changes, selectedItem: state.selectedItem, inputValue: state.selectedItem?.label ?? "" };
      return changes;
    },
  });
  const missed = cb.isOpen && query.trim() !== "" && matching.length === 0;
  useEffect(() => {
    if (missed) fresh.onMiss(query.trim());
  }, [missed, query, fresh]);
  const groups = GROUP_ORDER.map((g) => [g, shown.filter((o) => o.group === g)] as const).filter(
    ([, os]) => os.length,
  );
  let index = 0;
  return (
    <span className={cn("relative inline-block", className)}>
      <label {...cb.getLabelProps()} className="sr-only">
        {label}
      </label>
      <input
        {...cb.getInputProps({ placeholder: "Choose a property…", spellCheck: false })}
        className="h-9 w-full rounded-md bg-white px-2 text-sm text-slate-900 ring-1 ring-slate-300 ring-inset focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
      />
      <div className={cn(POPUP_CLASS, "w-80", !cb.isOpen && "hidden")}>
        <div {...cb.getMenuProps({ "aria-label": "Properties" })} className="max-h-80 overflow-auto py-1">
          {cb.isOpen &&
            groups.map(([g, os]) => (
              <div key={g} role="group" aria-labelledby={`${groupId}-${g}`}>
                <div
                  id={`${groupId}-${g}`}
                  role="presentation"
                  className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase"
                >
                  {g}
                </div>
                {os.map((o) => {
                  const i = index++;
                  return (
                    <div
                      key={o.name}
                      {...cb.getItemProps({ item: o, index: i })}
                      className={cn(OPTION_CLASS, cb.highlightedIndex === i && "bg-brand-50")}
                    >
                      <span className={cn("truncate", o.name === value && "font-semibold")}>{o.label}</span>{" "}
                      {o.hint && <span className="ml-auto shrink-0 text-xs text-slate-500">{o.hint}</span>}
                    </div>
                  );
                })}
              </div>
            ))}
        </div>
        {cb.isOpen && (
          <p className="border-t border-slate-100 px-3 py-1.5 text-xs text-slate-500" aria-live="polite">
            {matching.length === 0
              ? "No property matches."
              : matching.length > shown.length
                ? `${shown.length} of ${matching.length} shown: type to narrow.`
                : `${matching.length} ${matching.length === 1 ? "property" : "properties"}`}
          </p>
        )}
      </div>
    </span>
  );
}
