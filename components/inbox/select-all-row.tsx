"use client";

import { useEffect, useRef } from "react";
import type { BulkSelection } from "./use-bulk-selection";

interface Props {
  selection: BulkSelection;
  /** Rows loaded in the list (the "page"). */
  loaded: number;
  /** Whether the list has rows beyond those loaded. */
  more: boolean;
  /** How many the filter matches, when the counters tell. */
  matching: number | undefined;
}

/** The header checkbox (the loaded rows), then the offer to select every conversation of the filter. */
export function SelectAllRow({ selection, loaded, more, matching }: Props) {
  const box = useRef<HTMLInputElement>(null);
  const all = selection.allMatching || (selection.count > 0 && selection.count >= loaded);
  const some = selection.count > 0 && !all;
  useEffect(() => {
    if (box.current) box.current.indeterminate = some;
  }, [some]);
  const beyond = more || (matching !== undefined && matching > loaded);
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-slate-200 px-3 py-1.5 text-xs text-slate-700">
      <label className="flex items-center gap-2">
        <input
          ref={box}
          type="checkbox"
          className="size-4 accent-brand-600"
          data-testid="select-page"
          checked={all}
          onChange={(e) => selection.setPage(e.target.checked)}
        />
        Select all
      </label>
      {all && beyond && !selection.allMatching && (
        <span data-testid="select-all-banner">
          All {selection.count} on this page are selected ·{" "}
          <button
            type="button"
            className="font-medium text-brand-700 underline"
            onClick={selection.selectAllMatching}
          >
            Select all {matching !== undefined ? `${matching} ` : ""}matching
          </button>
        </span>
      )}
      {selection.allMatching && (
        <span data-testid="select-all-banner">
          All {matching !== undefined ? `${matching} ` : ""}matching conversations are selected ·{" "}
          <button type="button" className="font-medium text-brand-700 underline" onClick={selection.clear}>
            Clear
          </button>
        </span>
      )}
    </div>
  );
}
