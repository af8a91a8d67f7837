/**
 * The one paging request every list service takes, whatever API version asked: services read a keyset and return
 * a keyset page, and only the HTTP edge (lib/api/pagination.ts) knows how v1 and v2 spell them.
 *
 * A list is ordered by a tuple of key columns (e.g. `[last_update, id]` or `[id]`). Keys are bigints inside:
 * timestamps as microseconds since the epoch, IDs as themselves, so a position never loses precision and rows
 * sharing a timestamp are never skipped at a page border.
 */
export type KeyKind = "ts" | "id";
export type Key = bigint[];
/** The kinds of a list's key columns, in order; enough to read and write its positions. */
export type KeyShape = readonly { kind: KeyKind }[];

export interface Keyset {
  /**
   * Where to page from: a whole key or a prefix of it (rows compare by that prefix only). None: from the newest
   * row for `before`, the oldest for `after`.
   */
  from?: Key;
  /**
   * `before`: rows with a smaller key, largest first; `after`: rows with a larger key, smallest first; `around`:
   * `floor(limit / 2)` rows before `from` (never `from` itself) and the rest after it. `around` needs `from`.
   */
  direction: "before" | "after" | "around";
  limit: number;
  /** The row at `from` itself belongs to the page (for `around`: to its `after` side). */
  including: boolean;
  /** The order of `items`, whichever side(s) were read. */
  order: "asc" | "desc";
}

export interface KeysetPage<T> {
  items: T[];
  /**
   * Per side read, the key to continue from when more rows remain on that side (the last row read there); absent
   * when that side is exhausted or was not read.
   */
  next: { before?: Key; after?: Key };
}
