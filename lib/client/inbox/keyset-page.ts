"use client";

import { requestEnvelope, type RequestOptions } from "../api";
import type { Page } from "./types";

type Position = NonNullable<Page<unknown>["next"]>;

/** One page of a list the API pages by position: its items, and where the page after it starts (if any). */
export async function fetchKeysetPage<T>(
  path: string,
  query: NonNullable<RequestOptions["query"]>,
  signal: AbortSignal,
): Promise<Page<T>> {
  const res = await requestEnvelope<T[]>("GET", path, { signal, query });
  const next = res.meta.next_before_position;
  return { items: res.data, next: Array.isArray(next) ? (next as Position) : null };
}

/** useInfiniteQuery's paging for such a list: the newest page first, then each page's `next`. */
export const keysetPaging = {
  initialPageParam: null as Position | null,
  getNextPageParam: (last: Page<unknown>) => last.next ?? undefined,
};
