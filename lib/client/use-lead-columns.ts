"use client";

import { useCallback, useSyncExternalStore } from "react";

/** Apps have their own props, so each app's choice is remembered apart. */
const keyOf = (appId: string) => `relay.leads.columns.${appId}`;
const MAX_COLUMNS = 20;
const listeners = new Set<() => void>();
const EMPTY: string[] = [];
// useSyncExternalStore needs the same array back while the stored text is unchanged.
const cached = new Map<string, { raw: string | null; value: string[] }>();

function parse(raw: string | null): string[] {
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed)
      ? parsed.filter((x): x is string => typeof x === "string").slice(0, MAX_COLUMNS)
      : EMPTY;
  } catch {
    return EMPTY;
  }
}

function read(key: string): string[] {
  let raw: string | null;
  try {
    raw = window.localStorage.getItem(key);
  } catch {
    return cached.get(key)?.value ?? EMPTY;
  }
  const hit = cached.get(key);
  if (hit && hit.raw === raw) return hit.value;
  const value = parse(raw);
  cached.set(key, { raw, value });
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

/** The custom and event props picked as extra columns of an app's leads table, remembered in this browser. */
export function useLeadColumns(appId: string): [string[], (next: string[]) => void] {
  const key = keyOf(appId);
  const columns = useSyncExternalStore(
    subscribe,
    () => read(key),
    () => EMPTY,
  );
  const set = useCallback(
    (next: string[]) => {
      const raw = JSON.stringify(next.slice(0, MAX_COLUMNS));
      try {
        window.localStorage.setItem(key, raw);
      } catch {
        // private mode: remember for this page only
        cached.set(key, { raw, value: parse(raw) });
      }
      for (const l of listeners) l();
    },
    [key],
  );
  return [columns, set];
}
