import { Prisma } from "./generated/client";
import type { Key, KeyKind, Keyset, KeysetPage } from "../domain/keyset";

/** One key column of a list: its kind and the column itself, e.g. Prisma.sql`c.last_update`. */
export interface KeyColumn {
  kind: KeyKind;
  sql: Prisma.Sql;
}

/** Runs the caller's query: `where` narrows by key, `order` sorts every key column, `limit` rows at most. */
export type Fetch<R> = (where: Prisma.Sql, order: Prisma.Sql, limit: number) => Promise<R[]>;

function sqlValue(kind: KeyKind, v: bigint): Prisma.Sql {
  return kind === "ts"
    ? Prisma.sql`(TIMESTAMPTZ 'epoch' + ${v} * INTERVAL '1 microsecond')`
    : Prisma.sql`${v}`;
}

/** `(a, b) > (x, y)` over the key prefix given. */
function compare(cols: KeyColumn[], key: Key, op: "<" | "<=" | ">" | ">="): Prisma.Sql {
  const used = cols.slice(0, key.length);
  const left = Prisma.join(used.map((c) => c.sql));
  const right = Prisma.join(used.map((c, i) => sqlValue(c.kind, key[i]!)));
  return Prisma.sql`(${left}) ${Prisma.raw(op)} (${right})`;
}

function orderBy(cols: KeyColumn[], dir: "ASC" | "DESC"): Prisma.Sql {
  return Prisma.join(cols.map((c) => Prisma.sql`${c.sql} ${Prisma.raw(dir)}`));
}

const TRUE = Prisma.sql`TRUE`;

function cmpKeys(a: Key, b: Key): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0n;
    const y = b[i] ?? 0n;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * One keyset page of the rows `fetch` reads, ordered by `cols`. Each side is one indexed range scan of `limit + 1`
 * rows: the extra row only tells whether more remain.
 */
export async function pageByKeyset<R>(
  keyset: Keyset,
  cols: KeyColumn[],
  keyOf: (r: R) => Key,
  fetch: Fetch<R>,
): Promise<KeysetPage<R>> {
  const { from } = keyset;
  const side = async (dir: "before" | "after", n: number, incl: boolean) => {
    const op = dir === "before" ? (incl ? "<=" : "<") : incl ? ">=" : ">";
    const where = from ? compare(cols, from, op) : TRUE;
    const rows = await fetch(where, orderBy(cols, dir === "before" ? "DESC" : "ASC"), n + 1);
    const kept = rows.slice(0, n);
    const last = kept[kept.length - 1];
    return { rows: kept, next: rows.length > n && last ? keyOf(last) : undefined };
  };
  let before: Awaited<ReturnType<typeof side>> | undefined;
  let after: Awaited<ReturnType<typeof side>> | undefined;
  if (keyset.direction === "before") before = await side("before", keyset.limit, keyset.including);
  else if (keyset.direction === "after") after = await side("after", keyset.limit, keyset.including);
  else {
    // The edge refuses `around` without a position, naming its parameter; getting here is a bug.
    if (!from) throw new Error("around needs a key to page from");
    const half = Math.floor(keyset.limit / 2);
    before = await side("before", half, false);
    after = await side("after", keyset.limit - half, keyset.including);
  }
  const items = [...(before?.rows ?? []), ...(after?.rows ?? [])];
  const sign = keyset.order === "desc" ? -1 : 1;
  items.sort((a, b) => cmpKeys(keyOf(a), keyOf(b)) * sign);
  const next: KeysetPage<R>["next"] = {};
  if (before?.next) next.before = before.next;
  if (after?.next) next.after = after.next;
  return { items, next };
}
