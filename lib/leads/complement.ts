import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";
import { compileFilters, type LoadedSegments } from "./compile";
import type { KeyWalks } from "./compile-system";
import { leadRows, leadRowsTotal } from "./lead-rows";
import type { CondType } from "./filter-grammar";
import type { Condition, Group } from "./filters";

/**
 * A filter that keeps most leads (`$country` is not "United States": 280k of 415k at 1M) is counted as the leads
 * minus the ones it drops, `total = leads − count(dropped)`, where the dropped leads are a positive condition that an
 * index serves (the leads country, city and sessions indexes, the list items) and the negated one reads
 * every lead. Only for a filter of that one condition: under an `and` with others, the others already narrow the
 * count.
 *
 * Exact only when the condition is never NULL, so that every lead is either kept or dropped: each pair below
 * compiles (compile.ts) to A and NOT A over the same values, with no NULL left to fall between:
 * - `$country`/`$city` str_neq `(col IS NULL OR lower(col) <> s)`; str_eq `col IS NOT NULL AND key = s` (the key is
 *   `lower(col) COLLATE "C"`: equality is byte equality under any deterministic collation).
 * - `$country`/`$city` str_ncontains `(col IS NULL OR NOT key = ANY(keys))`; str_contains `col IS NOT NULL AND key =
 *   ANY(keys)`, the keys that contain the text (compile-system.ts); or, past its walk's limit, `strpos` on `lower(col)`
 *   both ways.
 * - `$sessions` neq `(col IS NULL OR col <> n)`; eq `col = n`.
 * - custom list_ncontains: no row of the item in user_prop_items; list_contains: a row of it (compile-custom.ts).
 *
 * `$phone` known / unknown are counted on the `(app_id, phone)` index over all users: a phone makes a user a lead
 * in both versions (relay_users_lead_flags), so the users with one are the leads with one.
 *
 * `$name` / `$email` known / unknown are read from lead_counts, which keeps each version's leads with a name and with
 * an email (`col IS NOT NULL`, as compiled by presenceCondition: '' is known) in the writing statement: no index is
 * narrower than the leads (318k users have an email at 1M), so a count of them read every lead (95–203 ms).
 *
 * A filter of one custom or event condition, positive or negated, or of one tag, is counted on its side table's rows
 * instead (v2: the rows carry its lead flag; lead-rows.ts).
 *
 * `$email` / `$phone` str_neq and str_ncontains: either value makes a user a lead in both versions, so the leads
 * they drop are the app's users whose value matches, counted on the column's own btree over every user without a
 * lead flag to read: index-only, each entry's value tested there (ownTextDropped). The page's `(col IS NULL OR
 * NOT match)` keeps exactly the leads this does not count, a NULL never matching.
 */
const KEYED_TEXT = new Set(["country", "city"]);
/** lead_counts' columns of the leads with the system column known, per version. */
const KEPT_PRESENCE: Record<string, { v2: string; v1: string }> = {
  name: { v2: "named", v1: "named_v1" },
  email: { v2: "emailed", v1: "emailed_v1" },
};
const INDEXED_INTEGER = new Set(["sessions"]);

/**
 * The value of `$email` / `$phone` as the conditions compare it, written so that the column's btree (without a lead
 * flag: each holds every user with a value) answers the count from its entries alone. `(app_id, lower(email))
 * INCLUDE (email) WHERE email IS NOT NULL` (migration *_lower_email_covering) holds the lower-cased email itself:
 * PostgreSQL reads it from the entry (lower() was half the time of a scan that computed it, 62 against 33 ms for
 * 318k emails at 1M), but plans an index-only scan only when the column is included too. `(app_id, phone)` holds
 * the phone, which lower() barely touches.
 */
const OWN_TEXT: Record<string, { value: Prisma.Sql; present: Prisma.Sql }> = {
  email: { value: Prisma.sql`lower(u.email)`, present: Prisma.sql`lower(u.email) IS NOT NULL` },
  phone: { value: Prisma.sql`lower(u.phone)`, present: Prisma.sql`u.phone IS NOT NULL` },
};

/** The app's users a negated `$email` / `$phone` text condition drops (see above), or null for another condition. */
function ownTextDropped(c: Condition, appId: bigint): Prisma.Sql | null {
  const own = c.prop.kind === "system" ? OWN_TEXT[c.prop.def.column] : undefined;
  if (!own || c.value.kind !== "string") return null;
  const s = Prisma.sql`lower(${c.value.s}::text)`;
  const match =
    c.type === "str_neq"
      ? Prisma.sql`${own.value} = ${s}`
      : c.type === "str_ncontains"
        ? Prisma.sql`strpos(${own.value}, ${s}) > 0`
        : null;
  return (
    match &&
    Prisma.sql`SELECT count(*) FROM users u WHERE u.app_id = ${appId} AND ${own.present} AND ${match}`
  );
}

function opposite(c: Condition): CondType | null {
  const { prop, type } = c;
  if (prop.kind === "system") {
    if (type === "str_neq" && KEYED_TEXT.has(prop.def.column)) return "str_eq";
    if (type === "str_ncontains" && KEYED_TEXT.has(prop.def.column)) return "str_contains";
    if (type === "neq" && INDEXED_INTEGER.has(prop.def.column)) return "eq";
  }
  if (prop.kind === "custom" && type === "list_ncontains") return "list_contains";
  return null;
}

/** The filter's one condition, when it is one condition (under an `and` or an `or`). */
export function single(tree: Group): Condition | null {
  const only = tree.items.length === 1 ? tree.items[0] : undefined;
  return only?.kind === "cond" ? only : null;
}

/**
 * The dropped leads of a filter made of one negated condition (see above), as a filter of their own; null for any
 * other filter, which is counted as it is.
 */
export function droppedLeads(tree: Group): Group | null {
  const only = single(tree);
  const type = only && opposite(only);
  return only && type ? { ...tree, items: [{ ...only, type }] } : null;
}

export interface TotalInput {
  db: Pick<Db, "segment" | "$queryRaw">;
  appId: bigint;
  /** The version's lead flag (`u.is_lead`, `u.is_lead_v1`) and its kept count of the app's leads. */
  flag: Prisma.Sql;
  leads: Prisma.Sql;
  rule: "v2" | "v1";
  /** The instant the filter's day windows are counted from (as compiled for the page). */
  now: Date;
  /** The page's key walks and segments (compile.ts), which the dropped leads' condition reuses. */
  keyWalks?: KeyWalks;
  segments?: LoadedSegments;
}

/** A statement for the filter's exact `total` (one `total` column) counted as above, or null to count it as it is. */
export async function complementTotal(tree: Group, t: TotalInput): Promise<Prisma.Sql | null> {
  const only = single(tree);
  // One custom, event or tag condition: counted on its side table's rows, which carry the v2 lead flag (lead-rows.ts).
  const rows = only && t.rule === "v2" ? leadRows(only, t.appId, t.now) : null;
  if (rows) return leadRowsTotal(rows, t.leads);
  if (only?.prop.kind === "system" && only.prop.def.column === "phone") {
    const withPhone = Prisma.sql`SELECT count(*) FROM users u WHERE u.app_id = ${t.appId} AND u.phone IS NOT NULL`;
    if (only.type === "known") return Prisma.sql`SELECT (${withPhone})::int AS total`;
    if (only.type === "unknown") return Prisma.sql`SELECT (${t.leads} - (${withPhone}))::int AS total`;
  }
  const own = only && ownTextDropped(only, t.appId);
  if (own) return Prisma.sql`SELECT (${t.leads} - (${own}))::int AS total`;
  const kept = only?.prop.kind === "system" ? KEPT_PRESENCE[only.prop.def.column] : undefined;
  if (only && kept && (only.type === "known" || only.type === "unknown")) {
    const known = Prisma.sql`coalesce((SELECT ${Prisma.raw(kept[t.rule])} FROM lead_counts
      WHERE app_id = ${t.appId}), 0)`;
    return only.type === "known"
      ? Prisma.sql`SELECT (${known})::int AS total`
      : Prisma.sql`SELECT (${t.leads} - ${known})::int AS total`;
  }
  const dropped = droppedLeads(tree);
  if (!dropped) return null;
  const where = await compileFilters(dropped, {
    db: t.db,
    appId: t.appId,
    now: t.now,
    leadsOnly: true,
    keyWalks: t.keyWalks,
    segments: t.segments,
  });
  return Prisma.sql`SELECT (${t.leads} - (SELECT count(*) FROM users u
    WHERE u.app_id = ${t.appId} AND ${t.flag} AND ${where}))::int AS total`;
}
