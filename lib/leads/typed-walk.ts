import { Prisma } from "../db/generated/client";
import { leadRows, leadRowsTotal, type LeadRows } from "./lead-rows";
import type { Condition } from "./filters";
import { oneTimeGated } from "./or-union";

/**
 * The walk hashes the M leads whose side row matches, then reads E = `(offset + limit) × leads / total` entries of
 * the leads index; a step reads as many and looks up the side table for each (stepMembership: several index entries'
 * cost each). So the walk is taken while M ≤ WALK_PER_MATCH × E, and only when the page lies within the matches
 * (otherwise it reads every lead). Measured at 1M by EXPLAIN ANALYZE, warm, walk against the one WHERE (PostgreSQL's
 * choice between stepping and joining every match, before the step was a branch of its own), ms: offset 9,980:
 * `plan` = "Enterprise" (33k) 40–62 / 143, `company` contains "tech" (26k) 94–114 / 148, `beta` true 54–73 /
 * 103–122, `known company` (174k) 115 / 96–101, `plan` ≠ "free" 86 / 75–85, `mrr` > 3000 (9.6k, an empty page) 92 /
 * 62; offset 0: `company` starts "glo" (8.7k) 6.5 / 32, `mrr` > 3000 6 / 23, "tech" 40 / 2.5, known 71 / 0.3.
 */
export const WALK_PER_MATCH = 12;

/** The system columns the leads index walked (users_leads_seen_idx) holds: a condition on them reads no row. */
const ON_LEADS_INDEX = new Set([
  "last_seen",
  "sessions",
  "country",
  "region",
  "city",
  "name",
  "email",
  "phone",
]);

export interface TypedWalkInput {
  /** Each lead walked is tested on `member` (with the app and the v2 lead flag of `base`). */
  member: Prisma.Sql;
  /** The statement of the exact total (one `total` column). */
  total: Prisma.Sql;
  /** M, the leads hashed, given the count past which the walk is not taken (a count may stop there). */
  hashed: (cap: Prisma.Sql) => Prisma.Sql;
  /** The app and the v2 lead flag; `where` adds the compiled filter to it. */
  base: Prisma.Sql;
  where: Prisma.Sql;
  /** The app's kept count of v2 leads. */
  leads: Prisma.Sql;
  limit: number;
  offset: number;
  perMatch: number;
  /** The matching leads' IDs (`user_id`), when the page may be found by probing each one's sort key (below). */
  probed?: Prisma.Sql;
  /** PROBE_PER_MATCH; tests set 0 (never) or 1e9. */
  probePerMatch?: number;
  /** `member` as a look-up per lead walked (one condition: stepMembership), for the pages neither walked nor probed. */
  stepped?: Prisma.Sql;
}

/**
 * A page of M matching leads can also be found by probing each one's sort key, index-only on users_leads_id_seen_idx
 * (`(id) INCLUDE (app_id, last_seen) WHERE is_lead`), and sorting them: ~3 µs a match against the walk's ~0.2 µs an
 * entry, so it is taken while M × PROBE_PER_MATCH ≤ E. Measured at 1M, event `first` before a date (13.5k matches)
 * at offset 9,980 (E = 306k): 40–46 ms probed against 78–92 ms walked, in psql, alternated.
 */
export const PROBE_PER_MATCH = 13;

/** The walk of a filter of one side-table condition (lead-rows.ts): M is its total, or the leads it drops. */
export function oneConditionWalk(
  rows: LeadRows,
  leads: Prisma.Sql,
): Pick<TypedWalkInput, "member" | "total" | "hashed" | "probed" | "stepped"> {
  return {
    member: membership(rows),
    total: leadRowsTotal(rows, leads),
    hashed: () =>
      rows.in ? Prisma.sql`(SELECT total FROM t)` : Prisma.sql`(${leads} - (SELECT total FROM t))`,
    ...(rows.in ? { probed: rows.ids } : {}),
    stepped: stepMembership(rows),
  };
}

/**
 * The lead walked looked up in the condition's rows one at a time (by the key of their table, which leads with
 * `user_id`): `LIMIT 1` keeps the look-up a subplan run per lead, which PostgreSQL can neither hash nor make a join.
 * Where the matches are many and the page is shallow, this reads E leads and as many keys instead of hashing M rows.
 * Left to PostgreSQL, the one WHERE chose between that and a join of every match on its estimate of M, which was
 * 10× low for `company` contains "tech" at 1M users (2.6k for 26.6k): the join, 53–78 ms, against 9–11 for this.
 */
function stepMembership(rows: LeadRows): Prisma.Sql {
  return Prisma.sql`(SELECT TRUE FROM (${rows.ids}) r WHERE r.user_id = u.id LIMIT 1) ${Prisma.raw(rows.in ? "IS TRUE" : "IS NULL")}`;
}

/**
 * The lead walked looked up in the side condition's rows by its ID (their table's key leads with `user_id`):
 * PostgreSQL hashes the rows once while they fit in hash_mem, as it did `u.id IN (…)`, and otherwise probes them
 * once per lead. The `IN` form, too large to hash, rescanned the whole list for every lead walked.
 */
function membership(rows: LeadRows): Prisma.Sql {
  return Prisma.sql`(EXISTS (SELECT 1 FROM (${rows.ids}) r WHERE r.user_id = u.id)) ${Prisma.raw(rows.in ? "IS TRUE" : "IS FALSE")}`;
}

/**
 * compileFilters' `membership` for the walk of a filter of several conditions (an `and`, a segment): each condition a
 * side table serves becomes a hashed test of its rows (kept in `sides`); the others are compiled as they are, and
 * `walkable` turns false on one that needs the lead's row (a column the leads index does not hold, a JSON test).
 */
function walkMembership(appId: bigint, now: Date) {
  const state = { sides: [] as LeadRows[], walkable: true };
  const member = (c: Condition): Prisma.Sql | null => {
    const rows = leadRows(c, appId, now);
    if (rows) {
      state.sides.push(rows);
      return membership(rows);
    }
    if (c.prop.kind !== "system" || !ON_LEADS_INDEX.has(c.prop.def.column)) state.walkable = false;
    return null;
  };
  return { state, member };
}

/**
 * The walk of a filter of several conditions, compiled by `compile` with walkMembership's tests; null where a
 * condition needs the lead's row, or none is a side table's.
 */
export async function severalConditionsWalk(
  appId: bigint,
  now: Date,
  compile: (membership: (c: Condition) => Prisma.Sql | null) => Promise<Prisma.Sql>,
): Promise<Pick<TypedWalkInput, "member" | "hashed"> | null> {
  const { state, member } = walkMembership(appId, now);
  const sql = await compile(member);
  if (!state.walkable || state.sides.length === 0) return null;
  return { member: sql, hashed: sidesHashed(state.sides) };
}

/**
 * M for the walk of several conditions: the rows hashed by each side condition, each counted up to the cap (an
 * index-only count that stops there: at offset 0 the cap is a few hundred rows).
 */
function sidesHashed(sides: LeadRows[]): (cap: Prisma.Sql) => Prisma.Sql {
  return (cap) =>
    Prisma.sql`(${Prisma.join(
      sides.map((s) => Prisma.sql`(SELECT count(*) FROM (${s.ids} LIMIT ${cap}) c)`),
      " + ",
    )})`;
}

/**
 * The list statement's parts (as orUnionStatement's) for a filter sorted by `$last_seen` descending, v2, whose
 * conditions a side table serves (lead-rows.ts) or the leads index holds: the total counted as given, and the page
 * found, when deep enough (above), by probing each match's sort key (one condition, few matches) or by walking the
 * leads index in sort order, each lead tested against a hash of each side condition's leads.
 * As one WHERE, PostgreSQL turns a side condition into a join, whose output has no order: deep pages hashed every
 * lead and sorted all the matches, or probed the side table once per lead walked. `(EXISTS …) IS TRUE` keeps the
 * test a subplan, hashed while it fits (PostgreSQL only makes a join of an `EXISTS` that is a condition of its own;
 * membership, above). The choice is made on the total the statement has just counted (a one-time filter: the other
 * side never runs).
 */
export function typedWalkStatement(q: TypedWalkInput): {
  with: Prisma.Sql;
  counted: Prisma.Sql;
  ids: Prisma.Sql;
} {
  const reach = q.offset + q.limit;
  const total = Prisma.sql`(SELECT total FROM t)`;
  // The page within the matches, and M × total ≤ perMatch × (offset + limit) × leads: M ≤ perMatch × E.
  const bound = Prisma.sql`${q.perMatch}::numeric * ${reach} * ${q.leads}`;
  const cap = Prisma.sql`(floor(${bound} / greatest(${total}, 1)) + 1)::int8`;
  const walk = Prisma.sql`${reach} <= ${total} AND ${q.hashed(cap)}::numeric * ${total} <= ${bound}`;
  const order = Prisma.sql`ORDER BY u.last_seen DESC NULLS LAST, u.id DESC LIMIT ${q.limit} OFFSET ${q.offset}`;
  const walked = Prisma.sql`SELECT u.id FROM users u WHERE ${q.base} AND ${q.member} ${order}`;
  // M = total here (the probed are the matches): total × total × PROBE_PER_MATCH ≤ (offset + limit) × leads.
  const probe = q.probed
    ? Prisma.sql`${total}::numeric * ${total} * ${q.probePerMatch ?? PROBE_PER_MATCH} <= ${reach}::numeric * ${q.leads}`
    : Prisma.sql`FALSE`;
  // Each match's sort key from the leads index by ID: OFFSET 0 keeps the look-up a parameterised one per match,
  // which PostgreSQL would otherwise make a hash join over every lead.
  const probed = Prisma.sql`SELECT u.id FROM (${q.probed ?? Prisma.sql`SELECT NULL::int8 AS user_id`}) r,
    LATERAL (SELECT u.id, u.last_seen FROM users u WHERE u.id = r.user_id AND ${q.base} OFFSET 0) u ${order}`;
  // Neither: stepped while the page lies within the matches (M > perMatch × E, so E is the smaller), else the one
  // WHERE, which then has fewer matches than the page reaches and sorts them.
  const step = q.stepped ? Prisma.sql`${reach} <= ${total}` : Prisma.sql`FALSE`;
  // Only a filter of one condition has a step: the others' statements carry no branch that never runs.
  const stepped = q.stepped
    ? Prisma.sql`${oneTimeGated(
        Prisma.sql`(SELECT NOT probe AND NOT walk AND step FROM w)`,
        Prisma.sql`SELECT u.id FROM users u WHERE ${q.base} AND ${q.stepped} ${order}`,
      )}
      UNION ALL`
    : Prisma.empty;
  return {
    // The choice is a CTE of its own: every side reads it, and M is counted once.
    with: Prisma.sql`WITH t AS MATERIALIZED (${q.total}),
      w AS MATERIALIZED (SELECT ${probe} AS probe, ${walk} AS walk, ${step} AS step)`,
    counted: Prisma.sql`SELECT total FROM t`,
    ids: Prisma.sql`${oneTimeGated(Prisma.sql`(SELECT probe FROM w)`, probed)}
      UNION ALL
      ${oneTimeGated(Prisma.sql`(SELECT NOT probe AND walk FROM w)`, walked)}
      UNION ALL
      ${stepped}
      ${oneTimeGated(Prisma.sql`(SELECT NOT probe AND NOT walk AND NOT step FROM w)`, Prisma.sql`SELECT u.id FROM users u WHERE ${q.where} ${order}`)}`,
  };
}
