import { z } from "zod";
import { Prisma } from "../db/generated/client";
import { validation } from "./errors";
import { p } from "./zod";

/**
 * Keyset pagination over a tuple of key columns (e.g. `[last_update, id]` or `[id]`). Keys are bigints inside:
 * timestamps as microseconds since the epoch, IDs as themselves, so a position never loses precision and rows
 * sharing a timestamp are never skipped at a page border.
 */
export type KeyKind = "ts" | "id";
export interface KeyColumn {
  kind: KeyKind;
  /** The column, e.g. Prisma.sql`c.last_update`. */
  sql: Prisma.Sql;
}
export type Key = bigint[];

export const v2PageParams = {
  paginate_position: p
    .json(
      z
        .array(z.union([z.number(), z.string()]), { error: "must be a JSON array" })
        .min(1)
        .max(3),
    )
    .optional(),
  paginate_count: p.int({ min: 1, max: 50 }).optional(),
  paginate_direction: p.oneOf(["after", "before", "around"]).optional(),
  paginate_including: p.bool().optional(),
  paginate_page_order: p.oneOf(["asc", "desc"]).optional(),
};

export const v1PageParams = {
  after: z.union([z.number(), z.string()]).optional(),
  count: p.int({ min: 1, max: 50 }).optional(),
  including: p.bool().optional(),
  page_order: p.oneOf(["asc", "desc"]).optional(),
};

type V2Input = { [K in keyof typeof v2PageParams]?: z.output<(typeof v2PageParams)[K]> };
type V1Input = { [K in keyof typeof v1PageParams]?: z.output<(typeof v1PageParams)[K]> };

/** Runs the caller's query: `where` narrows by key, `order` sorts every key column, `limit` rows at most. */
export type Fetch<R> = (where: Prisma.Sql, order: Prisma.Sql, limit: number) => Promise<R[]>;

function micros(v: number | string): bigint {
  const s = typeof v === "number" ? v.toFixed(6) : v.trim();
  const m = /^(-?)(\d+)(?:\.(\d{0,6})\d*)?$/.exec(s);
  if (!m) throw new Error("not a timestamp");
  const frac = (m[3] ?? "").padEnd(6, "0");
  const abs = BigInt(m[2]!) * 1_000_000n + BigInt(frac);
  return m[1] ? -abs : abs;
}

const MAX_ID = 2n ** 63n - 1n;
// PostgreSQL's timestamps end with the year 9999: a later position can only be a mistake.
const MAX_MICROS = 253402300799n * 1_000_000n;

function toKey(cols: KeyColumn[], raw: (number | string)[], field: string): Key {
  if (raw.length > cols.length) throw validation({ [field]: `must have at most ${cols.length} elements` });
  let key: Key;
  try {
    key = raw.map((v, i) => {
      if (cols[i]!.kind === "ts") return micros(v);
      if (typeof v === "number" ? !Number.isSafeInteger(v) : !/^\d{1,19}$/.test(v)) throw new Error("id");
      return BigInt(v);
    });
  } catch {
    throw validation({ [field]: "is not a position of this list" });
  }
  const inRange = key.every((v, i) => v >= 0n && v <= (cols[i]!.kind === "ts" ? MAX_MICROS : MAX_ID));
  if (!inRange) throw validation({ [field]: "is out of range" });
  return key;
}

function sqlValue(kind: KeyKind, v: bigint): Prisma.Sql {
  return kind === "ts"
    ? Prisma.sql`(TIMESTAMPTZ 'epoch' + ${v} * INTERVAL '1 microsecond')`
    : Prisma.sql`${v}`;
}

/** `(a, b) > (x, y)` over the key prefix given. */
function compare(cols: KeyColumn[], key: Key, op: "<" | "<=" | ">" | ">=" | "="): Prisma.Sql {
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

/** v2 positions: timestamps as float seconds, IDs as bigints (strings with id_as_string). */
export function positionOf(cols: KeyColumn[], key: Key): (number | bigint)[] {
  return key.map((v, i) => (cols[i]!.kind === "ts" ? Number(v) / 1e6 : v));
}

export interface V2Page<R> {
  items: R[];
  meta: {
    next_before_position?: (number | bigint)[] | null;
    next_after_position?: (number | bigint)[] | null;
  };
}

export async function paginateV2<R>(
  input: V2Input,
  cols: KeyColumn[],
  keyOf: (r: R) => Key,
  fetch: Fetch<R>,
): Promise<V2Page<R>> {
  const count = input.paginate_count ?? 20;
  const direction = input.paginate_direction ?? "before";
  const including = input.paginate_including ?? false;
  const pos = input.paginate_position ? toKey(cols, input.paginate_position, "paginate_position") : undefined;
  const side = async (dir: "before" | "after", n: number, incl: boolean) => {
    const op = dir === "before" ? (incl ? "<=" : "<") : incl ? ">=" : ">";
    const where = pos ? compare(cols, pos, op) : TRUE;
    const rows = await fetch(where, orderBy(cols, dir === "before" ? "DESC" : "ASC"), n + 1);
    return { rows: rows.slice(0, n), more: rows.length > n };
  };
  let before: { rows: R[]; more: boolean } | undefined;
  let after: { rows: R[]; more: boolean } | undefined;
  if (direction === "before") before = await side("before", count, including);
  else if (direction === "after") after = await side("after", count, including);
  else {
    if (!pos) throw validation({ paginate_position: "is required with paginate_direction=around" });
    const half = Math.floor(count / 2);
    before = await side("before", half, false);
    after = await side("after", count - half, including);
  }
  const items = [...(before?.rows ?? []), ...(after?.rows ?? [])];
  items.sort(
    (a, b) => cmpKeys(keyOf(a), keyOf(b)) * ((input.paginate_page_order ?? "desc") === "desc" ? -1 : 1),
  );
  const meta: V2Page<R>["meta"] = {};
  if (before) {
    const last = before.rows[before.rows.length - 1];
    meta.next_before_position = before.more && last ? positionOf(cols, keyOf(last)) : null;
  }
  if (after) {
    const last = after.rows[after.rows.length - 1];
    meta.next_after_position = after.more && last ? positionOf(cols, keyOf(last)) : null;
  }
  return { items, meta };
}

/** v1 cursors: the whole key as a string (`seconds.micros_id`), so ties at a page border are never skipped. */
export function encodeCursor(cols: KeyColumn[], key: Key): string | bigint {
  if (cols.length === 1 && cols[0]!.kind === "id") return key[0]!;
  return key
    .map((v, i) =>
      cols[i]!.kind === "ts" ? `${v / 1_000_000n}.${String(v % 1_000_000n).padStart(6, "0")}` : String(v),
    )
    .join("_");
}

export async function paginateV1<R>(
  input: V1Input,
  cols: KeyColumn[],
  keyOf: (r: R) => Key,
  fetch: Fetch<R>,
): Promise<{ items: R[]; meta: { next_after: string | bigint | null } }> {
  const count = input.count ?? 20;
  const desc = (input.page_order ?? "desc") === "desc";
  let where = TRUE;
  if (input.after !== undefined && input.after !== "") {
    // A bare number (the old form) names only the first key column.
    const parts = typeof input.after === "number" ? [input.after] : input.after.split("_");
    const key = toKey(cols, parts, "after");
    where = compare(cols, key, desc ? (input.including ? "<=" : "<") : input.including ? ">=" : ">");
  }
  const rows = await fetch(where, orderBy(cols, desc ? "DESC" : "ASC"), count + 1);
  const items = rows.slice(0, count);
  const last = items[items.length - 1];
  return {
    items,
    meta: { next_after: rows.length > count && last ? encodeCursor(cols, keyOf(last)) : null },
  };
}
