import { Prisma } from "../db/generated/client";
import type { Group } from "./filters";
import { leadRows } from "./lead-rows";

/**
 * The most matches (summed over the branches, before removing duplicates) for which the list answers a root `or`
 * from its branches' IDs rather than one walk of every lead. The nested or/and bench case (24k) at 1M: 1.2–2.1 s →
 * 0.16–0.29 s; an `or` with a frequent branch (`$sessions gte 3`, 255k of 415k leads) read whole was 4× slower than
 * the walk, so beyond this the statement stops reading the branches and falls back (docs/scaling.md).
 */
export const OR_UNION_MAX = 50_000;

/**
 * Leads per match at which the union and the single WHERE cost the same, about: at 1M the `or` above read 255k
 * matches in 4× the walk of 415k leads, so a match costs ~6.5 leads walked. Past OR_UNION_MAX the bound grows with
 * the app's leads at 8 per match: at 5M (2.1M leads) the nested or/and's 119k matches are read in 1.1 s, where the
 * single WHERE probed every lead's rows (19 s).
 */
export const OR_UNION_LEADS_PER_MATCH = 8;

/** The most matches (upTo) for which an `or` of an app with `leads` leads is answered from its branches. */
export function orUnionBound(leads: number): number {
  return Math.max(OR_UNION_MAX, Math.floor(leads / OR_UNION_LEADS_PER_MATCH));
}

/** The `or` whose items a filter tree matches, through `and` groups of a single item; null when there is none. */
export function rootOr(root: Group): Group | null {
  let g = root;
  while (g.op === "and" && g.items.length === 1 && g.items[0]?.kind === "group") g = g.items[0];
  return g.op === "or" && g.items.length >= 2 ? g : null;
}

/** Each item of an `or` as a tree of its own (compiled alone, it is one branch's condition). */
export function branchesOf(or: Group): Group[] {
  return or.items.map((item) => ({ kind: "group", path: or.path, op: "and", items: [item] }));
}

/**
 * Leads walked per match at which the walk of the leads index (each lead tested against a hash of the matches, ~0.2
 * µs) and the probe of each match's sort key (~3 µs, then a sort of them all) cost the same (typed-walk.ts's figures).
 */
export const OR_WALK_PER_MATCH = 15;

/**
 * A branch's matching leads as IDs alone, for the walk below (v2): a side-table condition's rows flagged `lead`
 * (lead-rows.ts), read without joining a lead, else the leads its compiled condition keeps.
 */
export function branchIds(branch: Group, compiled: Prisma.Sql, base: Prisma.Sql, appId: bigint, now: Date) {
  const only = branch.items.length === 1 ? branch.items[0] : undefined;
  const rows = only?.kind === "cond" ? leadRows(only, appId, now) : null;
  return rows?.in
    ? Prisma.sql`(SELECT r.user_id AS id FROM (${rows.ids}) r)`
    : Prisma.sql`(SELECT u.id FROM users u WHERE ${base} AND ${compiled})`;
}

/**
 * For a list sorted by `$last_seen` descending (v2): each branch's IDs alone (branchIds), so that the count reads no
 * lead, and the page walked from the leads index when it is near the top (OR_WALK_PER_MATCH).
 */
export interface OrWalk {
  arms: Prisma.Sql[];
  /** The app's kept count of v2 leads. */
  leads: Prisma.Sql;
  perMatch: number;
}

export interface OrUnionInput {
  /** The conditions every match meets (the app and the lead flag). */
  base: Prisma.Sql;
  /** Each branch compiled alone (its side-table conditions as semi-joins), for its own arm. */
  branches: Prisma.Sql[];
  /** The whole `or` compiled as one condition, for the single WHERE past `upTo`. */
  whole: Prisma.Sql;
  sort: Prisma.Sql;
  dir: Prisma.Sql;
  limit: number;
  offset: number;
  upTo: number;
  walk?: OrWalk;
}

/**
 * The list statement's parts for an `or`: a WITH clause, the count and the page's IDs, for `${with} SELECT … FROM
 * (${counted}) c … JOIN (${ids}) k`. Each branch's leads are found on their own (each through its own index: the
 * trigram, a leads index, the tag's users), with their sort key, so the page is the top of the matches and no lead
 * is read again. The branches are read up to `upTo + 1` rows: beyond `upTo` the single-WHERE count and page run
 * instead (the other side is never executed: its condition is a constant of the statement, a one-time filter).
 * UNION ALL under LIMIT streams and stops; the duplicates (a lead in two branches) are removed after.
 */
export function orUnionStatement(q: OrUnionInput): {
  with: Prisma.Sql;
  counted: Prisma.Sql;
  ids: Prisma.Sql;
} {
  if (q.walk) return orWalkStatement(q, q.walk);
  const where = Prisma.sql`${q.base} AND ${q.whole}`;
  const arms = q.branches.map(
    (b) => Prisma.sql`(SELECT u.id, ${q.sort} AS k FROM users u WHERE ${q.base} AND ${b})`,
  );
  const order = (id: Prisma.Sql, k: Prisma.Sql) => Prisma.sql`${k} ${q.dir} NULLS LAST, ${id} ${q.dir}`;
  return {
    with: Prisma.sql`WITH ${boundedMatches(arms, q.upTo, Prisma.sql`id, k`)}`,
    counted: Prisma.sql`SELECT ${boundedTotal(where)} AS total`,
    ids: Prisma.sql`(SELECT d.id FROM d WHERE (SELECT ok FROM few)
        ORDER BY ${order(Prisma.sql`d.id`, Prisma.sql`d.k`)} LIMIT ${q.limit} OFFSET ${q.offset})
      UNION ALL
      ${oneTimeGated(
        Prisma.sql`NOT (SELECT ok FROM few)`,
        Prisma.sql`SELECT u.id FROM users u WHERE ${where}
          ORDER BY ${order(Prisma.sql`u.id`, q.sort)} LIMIT ${q.limit} OFFSET ${q.offset}`,
      )}`,
  };
}

/**
 * orUnionStatement for a list sorted by `$last_seen` descending: the branches' IDs alone, deduplicated and counted
 * (no lead read for a side-table branch: the nested or/and's 15k matches of a tag and a custom text were each probed
 * for their sort key), then the page either walked in the leads index's order, each lead tested against a hash of
 * the matches (E = (offset + limit) × leads / total entries), or, when E > perMatch × total, each match's sort key
 * probed and sorted. Past `upTo` matches, the single WHERE as in orUnionStatement.
 */
function orWalkStatement(
  q: OrUnionInput,
  w: OrWalk,
): { with: Prisma.Sql; counted: Prisma.Sql; ids: Prisma.Sql } {
  const where = Prisma.sql`${q.base} AND ${q.whole}`;
  const reach = q.offset + q.limit;
  const order = Prisma.sql`ORDER BY u.last_seen DESC NULLS LAST, u.id DESC LIMIT ${q.limit} OFFSET ${q.offset}`;
  const total = Prisma.sql`(SELECT total FROM t)`;
  // Within the matches, and E ≤ perMatch × total: reach × leads ≤ perMatch × total².
  const walks = Prisma.sql`(SELECT ok FROM few) AND ${reach} <= ${total}
    AND ${reach}::numeric * ${w.leads} <= ${w.perMatch}::numeric * ${total} * ${total}`;
  const walked = Prisma.sql`SELECT u.id FROM users u
    WHERE ${q.base} AND (EXISTS (SELECT 1 FROM d WHERE d.id = u.id)) IS TRUE ${order}`;
  // Each match's key from the leads index by ID: OFFSET 0 keeps it a look-up per match (typed-walk.ts).
  const probed = Prisma.sql`SELECT u.id FROM d,
    LATERAL (SELECT u.id, u.last_seen FROM users u WHERE u.id = d.id AND ${q.base} OFFSET 0) u ${order}`;
  return {
    with: Prisma.sql`WITH ${boundedMatches(w.arms, q.upTo, Prisma.sql`id`)},
      t AS MATERIALIZED (SELECT ${boundedTotal(where)} AS total),
      ow AS MATERIALIZED (SELECT (SELECT ok FROM few) AS few, ${walks} AS walk)`,
    counted: Prisma.sql`SELECT total FROM t`,
    ids: Prisma.sql`${oneTimeGated(Prisma.sql`(SELECT walk FROM ow)`, walked)}
      UNION ALL
      ${oneTimeGated(Prisma.sql`(SELECT few AND NOT walk FROM ow)`, probed)}
      UNION ALL
      ${oneTimeGated(Prisma.sql`(SELECT NOT few FROM ow)`, Prisma.sql`SELECT u.id FROM users u WHERE ${where} ${order}`)}`,
  };
}

/**
 * The CTEs both statements above share: `m`, the branches' rows up to one past `upTo` (UNION ALL under LIMIT
 * streams and stops), `few`, whether they are within it, and `d`, their distinct `columns`.
 */
function boundedMatches(arms: Prisma.Sql[], upTo: number, columns: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`m AS MATERIALIZED (SELECT * FROM (${Prisma.join(arms, " UNION ALL ")}) a LIMIT ${upTo + 1}),
      few AS (SELECT count(*) <= ${upTo} AS ok FROM m),
      d AS MATERIALIZED (SELECT DISTINCT ${columns} FROM m)`;
}

/** The total over boundedMatches' CTEs: the distinct matches while few, else the single WHERE's count. */
function boundedTotal(where: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`CASE WHEN (SELECT ok FROM few) THEN (SELECT count(*)::int FROM d)
    ELSE (SELECT count(*)::int FROM users u WHERE ${where}) END`;
}

/**
 * `(SELECT id FROM (${page}) WHERE ${gate} OFFSET 0)`: a page of IDs that runs only when `gate`, a condition of the
 * statement alone (of its CTEs), holds. Written inside the page's WHERE, the gate became a one-time filter below the
 * page's Gather, whose workers were started before the gate was read: 6–10 ms of a statement whose other side
 * answered (the walk of typed-walk.ts at 1M, 81 → 72 ms). Above the page's LIMIT it cannot be pushed down, and gates
 * all of it. `OFFSET 0` keeps it a query level of its own, where the gate stays a one-time filter above the page:
 * pulled up into a LEFT JOIN that read it directly, it became a join filter, tested after the page had run (PGlite).
 */
export function oneTimeGated(gate: Prisma.Sql, page: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT g.id FROM (${page}) g WHERE ${gate} OFFSET 0)`;
}
