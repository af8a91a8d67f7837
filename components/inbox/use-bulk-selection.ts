"use client";

import { useCallback, useMemo, useState } from "react";

export interface BulkSelection {
  /** Picked one by one (or a page at a time). */
  ids: ReadonlySet<string>;
  /** "Select all N matching": every conversation of the list's filter, loaded or not. */
  allMatching: boolean;
  count: number;
  toggle: (id: string, opts?: { range?: boolean }) => void;
  setPage: (on: boolean) => void;
  selectAllMatching: () => void;
  clear: () => void;
}

/**
 * The Inbox list's checkboxes. `order` is the loaded rows' IDs as shown; a shift-click selects from the last
 * toggled row to this one. `filterKey` changes with the list's filter, which clears it.
 */
export function useBulkSelection(order: readonly string[], filterKey: string): BulkSelection {
  const [state, setState] = useState({
    key: filterKey,
    ids: new Set<string>(),
    allMatching: false,
    anchor: null as string | null,
  });
  // Another filter is another list: what was picked in the last one is not in view.
  const current = useMemo(
    () =>
      state.key === filterKey
        ? state
        : { key: filterKey, ids: new Set<string>(), allMatching: false, anchor: null },
    [state, filterKey],
  );

  const toggle = useCallback(
    (id: string, opts: { range?: boolean } = {}) =>
      setState((s0) => {
        const s = s0.key === filterKey ? s0 : { ...s0, ids: new Set<string>(), anchor: null };
        const ids = new Set(s.ids);
        const on = !ids.has(id);
        const from = s.anchor === null ? -1 : order.indexOf(s.anchor);
        const to = order.indexOf(id);
        if (opts.range && from >= 0 && to >= 0) {
          const [lo, hi] = from < to ? [from, to] : [to, from];
          for (const x of order.slice(lo, hi + 1)) {
            if (on) ids.add(x);
            else ids.delete(x);
          }
        } else if (on) ids.add(id);
        else ids.delete(id);
        return { key: filterKey, ids, allMatching: false, anchor: id };
      }),
    [order, filterKey],
  );
  const setPage = useCallback(
    (on: boolean) =>
      setState({ key: filterKey, ids: on ? new Set(order) : new Set(), allMatching: false, anchor: null }),
    [order, filterKey],
  );
  const selectAllMatching = useCallback(
    () => setState((s) => ({ ...s, key: filterKey, ids: new Set(order), allMatching: true })),
    [order, filterKey],
  );
  const clear = useCallback(
    () => setState({ key: filterKey, ids: new Set(), allMatching: false, anchor: null }),
    [filterKey],
  );
  return useMemo(
    () => ({
      ids: current.ids,
      allMatching: current.allMatching,
      count: current.ids.size,
      toggle,
      setPage,
      selectAllMatching,
      clear,
    }),
    [current, toggle, setPage, selectAllMatching, clear],
  );
}
