import { Prisma } from "../db/generated/client";
import type { Queryable } from "../db/sql";
import type { Condition, PropRef } from "./filters";

/**
 * System text columns with a leads index keyed by their lower-cased value under the "C" collation
 * (users_leads_country_idx, users_leads_city_idx): equals and starts with are written on that key, so the count
 * and the page read only the matching entries. Under "C" (byte order) PostgreSQL turns `starts_with` into a range
 * on the key; equality is byte equality under any deterministic collation, and `lower` still runs under the
 * column's own collation, so the answers are those of the plain `lower(column)` conditions. These columns skip the
 * trigram prefilter: its `ILIKE`, tested on every matching entry, costs more than the btree saves.
 */
const KEYED_COLUMNS = new Set(["country", "city"]);

export function keyedTextCondition(
  prop: PropRef,
  type: "str_eq" | "str_starts",
  s: string,
): Prisma.Sql | null {
  if (prop.kind !== "system" || !KEYED_COLUMNS.has(prop.def.column)) return null;
  const col = Prisma.raw(`u.${prop.def.column}`);
  const key = Prisma.raw(`(lower(u.${prop.def.column}) COLLATE "C")`);
  return type === "str_eq"
    ? Prisma.sql`(${col} IS NOT NULL AND ${key} = lower(${s}::text))`
    : Prisma.sql`(${col} IS NOT NULL AND starts_with(${key}, lower(${s}::text)))`;
}

/**
 * `known` / `unknown` on a system text column, written on `col || ''` (NULL exactly when the column is): the
 * planner then cannot answer it from the column's own btree ((app_id, email), (app_id, phone): all users, not only
 * leads), whose bitmap reads a table page per match (95k matches of `$phone known` at 1M: 28k pages, 443 ms), and
 * counts from the covering leads index, which holds the column (6.4k pages, 111 ms). Expression statistics on
 * each `col || ''` (migration *_presence_statistics) tell the planner how many leads pass.
 */
export function presenceCondition(prop: PropRef, type: "known" | "unknown"): Prisma.Sql | null {
  if (prop.kind !== "system" || prop.def.type !== "string") return null;
  const col = Prisma.raw(`(u.${prop.def.column} || '')`);
  return type === "known" ? Prisma.sql`${col} IS NOT NULL` : Prisma.sql`${col} IS NULL`;
}

/** System text columns with a btree of their own over every user, (app_id, email) and (app_id, phone). */
const OWN_BTREE = new Set(["email", "phone"]);

/**
 * The presence test inside a text condition on `email` / `phone` (it makes the condition FALSE, not NULL, on a
 * missing value): as `col IS NOT NULL` the planner ANDed the trigram bitmap with the column's own btree for it,
 * every user with an email (`$email` contains "kowalski" at 1M: 52 → 17 ms for its count; the old form was planned
 * so in two of three runs, by the sample ANALYZE took). Null for the other columns, which have no btree of their
 * own: their plain test leaves the planner nothing to pick wrongly.
 */
export function textPresence(prop: PropRef): Prisma.Sql | null {
  return prop.kind === "system" && OWN_BTREE.has(prop.def.column) ? presenceCondition(prop, "known") : null;
}

/**
 * The most distinct keys walked to answer a contains from a keyed column's keys (below); past it, the trigram form.
 * Each key costs one descent of the leads index (≈0.1 ms at 1M), so the walk stays within ~25 ms.
 */
export const MAX_KEYS_WALKED = 256;

/**
 * `$country` / `$city` contains and does not contain, for the leads list: the column has few distinct values (27
 * cities among 415k leads in the bench), so the keys containing the text are found first, by a walk of the keyed
 * leads index from one key to the next (a skip scan, one descent per key), and the condition becomes `key = ANY`
 * of them: its count an index-only range per key, its page the matches sorted, where the trigram form read a
 * bitmap of candidates and each one's row (70 / 138 ms at 1M, offsets 0 and 9,980). The keys are the v2 leads', a
 * superset of the v1 leads', so only for filters of leads (never a user's segments, which may test a visitor).
 * Null (the trigram form) for other conditions, and where the column has more than MAX_KEYS_WALKED keys.
 */
export async function keyedContainsCondition(
  db: Pick<Queryable, "$queryRaw">,
  appId: bigint,
  c: Condition,
  walks?: KeyWalks,
): Promise<Prisma.Sql | null> {
  const { prop, type, value } = c;
  if (type !== "str_contains" && type !== "str_ncontains") return null;
  if (prop.kind !== "system" || !KEYED_COLUMNS.has(prop.def.column) || value.kind !== "string") return null;
  const column = prop.def.column;
  const key = Prisma.raw(`(lower(u.${column}) COLLATE "C")`);
  // Contains and does-not-contain of one text walk the same keys: a list's page and its complement's count share it.
  const keys = await walkOnce(walks, `${appId}/${column}/${value.s}`, () =>
    valuesContaining(db, {
      from: Prisma.sql`users u`,
      rows: Prisma.sql`u.app_id = ${appId} AND u.is_lead AND u.${Prisma.raw(column)} IS NOT NULL`,
      key,
      text: Prisma.sql`lower(${value.s}::text) COLLATE "C"`,
      upTo: MAX_KEYS_WALKED,
    }),
  );
  if (!keys) return null;
  const col = Prisma.raw(`u.${column}`);
  return type === "str_contains"
    ? Prisma.sql`(${col} IS NOT NULL AND ${key} = ANY(${keys}::text[]))`
    : Prisma.sql`(${col} IS NULL OR NOT (${key} = ANY(${keys}::text[])))`;
}

/** One request's key walks (keyedContainsCondition, custom-keys.ts), by what they walk: each walked once. */
export type KeyWalks = Map<string, Promise<string[] | null>>;

/** `walk()`, or the same walk already started for this request under `memo`. */
export function walkOnce(
  walks: KeyWalks | undefined,
  memo: string,
  walk: () => Promise<string[] | null>,
): Promise<string[] | null> {
  const pending = walks?.get(memo) ?? walk();
  walks?.set(memo, pending);
  return pending;
}

/**
 * The distinct values of `key` over `rows` of `from` that contain `text` (`strpos` > 0), found by walking the index
 * on `key` from one value to the next (a skip scan, one descent per value); null past `upTo` values.
 */
export async function valuesContaining(
  db: Pick<Queryable, "$queryRaw">,
  q: { from: Prisma.Sql; rows: Prisma.Sql; key: Prisma.Sql; text: Prisma.Sql; upTo: number },
): Promise<string[] | null> {
  const [walk] = await db.$queryRaw<{ keys: string[] | null; ended: boolean | null }[]>(Prisma.sql`
    WITH RECURSIVE k AS (
      (SELECT ${q.key} AS k, 1 AS n FROM ${q.from} WHERE ${q.rows} ORDER BY 1 LIMIT 1)
      UNION ALL
      SELECT (SELECT ${q.key} FROM ${q.from} WHERE ${q.rows} AND ${q.key} > k.k ORDER BY 1 LIMIT 1), k.n + 1
      FROM k WHERE k.k IS NOT NULL AND k.n <= ${q.upTo}
    )
    SELECT array_agg(k.k) FILTER (WHERE strpos(k.k, ${q.text}) > 0) AS keys,
      coalesce(bool_or(k.k IS NULL), count(*) = 0) AS ended
    FROM k`);
  // The walk ends on a NULL value, past the last one (or finds none); otherwise it stopped at its limit.
  return walk?.ended ? (walk.keys ?? []) : null;
}
