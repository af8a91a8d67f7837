"use client";

import { useSyncExternalStore } from "react";

/**
 * The leads list the operator last looked at (its filter, sort and page, as the URL's query), so the card's
 * "← All leads" goes back to it. Per tab (sessionStorage); a new tab starts from the plain list.
 */
const KEY = "relay.leads.list";

export function rememberLeadsList(query: string): void {
  try {
    sessionStorage.setItem(KEY, query);
  } catch {
    // storage off (private mode, quota): the link falls back to the plain list
  }
}

function read(): string {
  try {
    return sessionStorage.getItem(KEY) ?? "";
  } catch {
    return "";
  }
}

const none = () => () => undefined;

/** The list's path with the remembered query; the plain list on the server and before hydration. */
export function useLeadsListHref(): string {
  const query = useSyncExternalStore(none, read, () => "");
  return query ? `/leads?${query}` : "/leads";
}
