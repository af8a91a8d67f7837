import { Prisma } from "../db/generated/client";
import { leadRowsTotal, type LeadRows } from "./lead-rows";
import { oneTimeGated } from "./or-union";

/**
 * The walk hashes the M leads whose side row matches, then reads E = `(offset + limit) × leads / total` entries of
 * the leads index; the one WHERE probes the side table for each lead it walks (about E probes, each several index
 * entries' cost) or hashes every lead and sorts the matches. So the walk is taken while M ≤ WALK_PER_MATCH × E, and
 * only when the page lies within the matches (otherwise it reads every lead). Measured at 1M by EXPLAIN ANALYZE,
 * warm, walk against one WHERE, ms: offset 9,980: `plan` = "Enterprise" (33k) 40–62 / 143, `company` contains
 * "tech" (26k) 94–114 / 148, `beta` true 54–73 / 103–122, `known company` (174k) 115 / 96–101, `plan` ≠ "free" 86 /
 * 75–85, `mrr` > 3000 (9.6k, an empty page) 92 / 62; offset 0: `company` starts "glo" (8.7k) 6.5 / 32, `mrr` > 3000
 * 6 / 23, "tech" 40 / 2.5, known 71 / 0.3.
 */
export const WALK_PER_MATCH = 12;

export interface TypedWalkInput {
  /** The filter's one condition as side-table rows (lead-rows.ts). */
  rows: LeadRows;
  /** The app and the v2 lead flag; `where` adds the compiled filter to it. */
  base: Prisma.Sql;
  where: Prisma.Sql;
  /** The app's kept count of v2 leads. */
  leads: Prisma.Sql;
  limit: number;
  offset: number;
  perMatch: number;
}

/**
 * The list statement's parts (as orUnionStatement's) for a filter of one custom, event or tag condition sorted by
 * `$last_seen` descending, v2: the total counted on its side rows (lead-rows.ts), and the page found, when deep
 * enough (above), by walking the leads index in sort order, each lead tested against a hash of the matching leads'
 * IDs.
 * As one WHERE, PostgreSQL turns the condition into a join, whose output has no order: deep pages hashed every lead
 * and sorted all the matches. `(… IN …) IS TRUE` keeps the test a hashed subplan (PostgreSQL only makes a join of an
 * `IN` that is a condition of its own). The choice is made on the total the statement has just counted (a one-time
 * filter: the other side never runs).
 */
export function typedWalkStatement(q: TypedWalkInput): {
  with: Prisma.Sql;
  counted: Prisma.Sql;
  ids: Prisma.Sql;
} {
  const rows = q.rows;
  const total = leadRowsTotal(rows, q.leads);
  const member = Prisma.sql`(u.id IN (${rows.ids})) ${Prisma.raw(rows.in ? "IS TRUE" : "IS FALSE")}`;
  // The page within the matches, and M × total ≤ perMatch × (offset + limit) × leads, M being the matching leads (the
  // total, or the leads it drops).
  const matching = rows.in
    ? Prisma.sql`(SELECT total FROM t)::numeric`
    : Prisma.sql`(${q.leads} - (SELECT total FROM t))::numeric`;
  const walk = Prisma.sql`${q.offset + q.limit} <= (SELECT total FROM t) AND ${matching} * (SELECT total FROM t)
    <= ${q.perMatch}::numeric * ${q.offset + q.limit} * ${q.leads}`;
  const order = Prisma.sql`ORDER BY u.last_seen DESC NULLS LAST, u.id DESC LIMIT ${q.limit} OFFSET ${q.offset}`;
  return {
    with: Prisma.sql`WITH t AS MATERIALIZED (${total})`,
    counted: Prisma.sql`SELECT total FROM t`,
    ids: Prisma.sql`(SELECT u.id FROM users u WHERE ${walk} AND ${q.base} AND ${member} ${order})
      UNION ALL
      ${oneTimeGated(Prisma.sql`NOT (${walk})`, Prisma.sql`SELECT u.id FROM users u WHERE ${q.where} ${order}`)}`,
  };
}
