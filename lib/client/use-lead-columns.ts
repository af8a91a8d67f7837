"use client";

import { useCallback, useSyncExternalStore } from "react";

const KEY = "relay.leads.columns";
const listeners = new Set<() => void>();
const EMPTY: string[] = [];
let cached: { raw: string | null; value: string[] } = { raw: null, value: EMPTY };

function read(): string[] {
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(KEY);
  } catch {
    return cached.value;
  }
  if (raw === cached.raw) return cached.value;
  let value: string[] = EMPTY;
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (Array.isArray(parsed)) value = parsed.filter((x): x is string => typeof x === "string").slice(0, 20);
  } catch {
    value = EMPTY;
  }
  cached = { raw, value };
  return value;
}

function subscribe(l: () => void) {
  listeners.add(l);
  window.addEventListener("storage", l);
  return () => {
    listeners.delete(l);
    window.removeEventListener("storage", l);
  };
}

/** The custom and event props picked as extra columns of the leads table, remembered in this browser. */
export function useLeadColumns(): [string[], (next: string[]) => void] {
  const columns = useSyncExternalStore(subscribe, read, () => EMPTY);
  const set = useCallback((next: string[]) => {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(next));
    } catch {
      cached = { raw: JSON.stringify(next), value: next };
    }
    for (const l of listeners) l();
  }, []);
  return [columns, set];
}
