import { planEachTime, sqlOf } from "../db/sql";
import { Prisma } from "../db/generated/client";
import { invalid } from "../domain/errors";
import { assertApp, type Ctx } from "../auth/context";
import { parseEventProp, systemProp, type UserSystemRow } from "../user-model/system-props";
import { compileFilters, propExpr, type LoadedSegments } from "./compile";
import type { KeyWalks } from "./compile-system";
import { complementTotal, single } from "./complement";
import { resolveCustomKeys } from "./custom-keys";
import { parseFilters, type Group } from "./filters";
import {
  branchesOf,
  branchIds,
  oneTimeGated,
  OR_WALK_PER_MATCH,
  orUnionBound,
  orUnionStatement,
  rootOr,
} from "./or-union";
import { leadRows, leadRowsTotal, summariesPage } from "./lead-rows";
import { oneConditionWalk, severalConditionsWalk, typedWalkStatement, WALK_PER_MATCH } from "./typed-walk";

export const MAX_REACHABLE = 10_000;

export interface ListLeadsInput {
  appId: bigint;
  filters?: unknown;
  sortProp?: string;
  sortOrder?: "asc" | "desc";
  offset?: number;
  limit?: number;
  /** v2 counts web-push subscribers as leads; v1 does not. */
  rule: "v2" | "v1";
  /** The most matches an `or` is answered from its branches with (orUnionBound); tests set 0 for the single WHERE. */
  orUnionUpTo?: number;
  /** typed-walk.ts's bound (WALK_PER_MATCH); tests set 0 for the one WHERE and 1e9 for the walk. */
  walkPerMatch?: number;
  /** typed-walk.ts's PROBE_PER_MATCH; tests set 0 (never probed) or 1e9. */
  probePerMatch?: number;
  /** typed-walk.ts's step of one condition; tests set false for the one WHERE. */
  step?: boolean;
  /** custom-keys.ts's MAX_CUSTOM_KEYS; tests set 0 for `strpos` on every row. */
  customKeysUpTo?: number;
  /** or-union.ts's OR_WALK_PER_MATCH; tests set 0 (the matches' keys probed) or 1e9 (walked); -1: no walk. */
  orWalkPerMatch?: number;
}

export interface LeadRow extends UserSystemRow {
  lastHeartbeat: Date | null;
}

function sortExpr(name: string): Prisma.Sql {
  if (!name.startsWith("$")) return propExpr({ kind: "custom", name }).sort;
  const def = systemProp(name);
  if (def) return propExpr({ kind: "system", name, def }).sort;
  const ev = parseEventProp(name);
  if (ev) return propExpr({ kind: "event", name, ...ev }).sort;
  throw invalid({ sort_prop: "must be a system, custom or event property" });
}

/**
 * One statement: the number of users matching the filters and the requested page of them, both under the same
 * WHERE (app, lead flag, filters); with no filters, the number is the app's kept count of leads. Reads are live, so
 * the list matches the user card at once. The page is found as IDs first: with the covering leads index, skipping to
 * offset 9,980 then reads the index alone, and only the page's rows from the table. A root `or` is answered from
 * its branches' matches while they are few (or-union.ts): as one WHERE, a tag or event under the `or` cannot use its
 * index, and every lead is read. Planned with its values each time: the best plan depends on how selective they are.
 */
export async function listLeads(
  ctx: Ctx,
  input: ListLeadsInput,
): Promise<{ total: number; users: LeadRow[] }> {
  assertApp(ctx, input.appId);
  const offset = input.offset ?? 0;
  const limit = input.limit ?? 20;
  if (offset + limit > MAX_REACHABLE) {
    throw invalid(
      { offset: `offset + limit must be at most ${MAX_REACHABLE}` },
      `At most ${MAX_REACHABLE} leads are reachable: offset + limit must be at most ${MAX_REACHABLE}; narrow the filters instead.`,
    );
  }
  const tree =
    input.filters === undefined || input.filters === null ? undefined : parseFilters(input.filters);
  const now = new Date();
  // Shared by every compile of this request (the branches of an `or`, the whole tree, the walk, the complement).
  const keyWalks: KeyWalks = new Map();
  const segments: LoadedSegments = new Map();
  if (tree) await resolveCustomKeys(sqlOf(ctx.db), input.appId, tree, keyWalks, input.customKeysUpTo);
  const compile = (g: Group) =>
    compileFilters(g, { db: ctx.db, appId: input.appId, now, leadsOnly: true, keyWalks, segments });
  const or = tree && rootOr(tree);
  const branches: Prisma.Sql[] = [];
  const orBranches = or ? branchesOf(or) : [];
  for (const b of orBranches) branches.push(await compile(b));
  // With an `or`, the whole tree is compiled too, for the single WHERE the union falls back to.
  const filters = tree ? await compile(tree) : Prisma.sql`TRUE`;
  const sort = sortExpr(input.sortProp ?? "$last_seen");
  const dir = Prisma.raw(input.sortOrder === "asc" ? "ASC" : "DESC");
  const flag = Prisma.raw(input.rule === "v1" ? "u.is_lead_v1" : "u.is_lead");
  const base = Prisma.sql`u.app_id = ${input.appId} AND ${flag}`;
  const where = Prisma.sql`${base} AND ${filters}`;
  // Every lead: the kept count (lead_counts, see its trigger) rather than a count of them all; a filter most leads
  // pass, that count minus the leads it drops (complement.ts).
  const leads = Prisma.sql`coalesce((SELECT ${Prisma.raw(input.rule === "v1" ? "leads_v1" : "leads")}
    FROM lead_counts WHERE app_id = ${input.appId}), 0)`;
  // Read first for an `or` (one small statement): its bound is a constant of the statement, so that the branches
  // are planned for the rows they may return.
  const upTo =
    input.orUnionUpTo ??
    (or
      ? orUnionBound((await sqlOf(ctx.db).$queryRaw<{ n: number }[]>`SELECT ${leads}::int AS n`)[0]?.n ?? 0)
      : 0);
  const only = tree && !or ? single(tree) : null;
  const sortName = input.sortProp ?? "$last_seen";
  const byLastSeen = sortName === "$last_seen" && input.sortOrder !== "asc";
  const side = only && input.rule === "v2" ? leadRows(only, input.appId, now) : null;
  const bySummary =
    side &&
    summariesPage(side, parseEventProp(sortName), input.sortOrder === "asc" ? "ASC" : "DESC", limit, offset);
  const counted = async () =>
    !tree || tree.items.length === 0
      ? Prisma.sql`SELECT ${leads} AS total`
      : ((await complementTotal(tree, {
          db: ctx.db,
          appId: input.appId,
          flag,
          leads,
          rule: input.rule,
          now,
          keyWalks,
          segments,
        })) ?? Prisma.sql`SELECT count(*)::int AS total FROM users u WHERE ${where}`);
  // A filter of several conditions (an `and`, a segment) with side-table ones: walked as one condition is.
  const several =
    tree && !or && !side && byLastSeen && input.rule === "v2"
      ? await severalConditionsWalk(input.appId, now, (membership) =>
          compileFilters(tree, {
            db: ctx.db,
            appId: input.appId,
            now,
            leadsOnly: true,
            keyWalks,
            segments,
            membership,
          }),
        )
      : null;
  const walking =
    side && byLastSeen ? oneConditionWalk(side, leads) : several && { ...several, total: await counted() };
  const walkInput = {
    base,
    where,
    leads,
    limit,
    offset,
    perMatch: input.walkPerMatch ?? WALK_PER_MATCH,
    probePerMatch: input.probePerMatch,
    ...(input.step === false ? { stepped: undefined } : {}),
  };
  const walked = walking
    ? typedWalkStatement({ ...walking, ...walkInput })
    : side && bySummary
      ? { with: Prisma.empty, counted: leadRowsTotal(side, leads), ids: bySummary }
      : null;
  const parts = or
    ? orUnionStatement({
        base,
        branches,
        whole: filters,
        sort,
        dir,
        limit,
        offset,
        upTo,
        walk:
          byLastSeen && input.rule === "v2" && input.orWalkPerMatch !== -1
            ? {
                arms: orBranches.map((b, k) => branchIds(b, branches[k]!, base, input.appId, now)),
                leads,
                perMatch: input.orWalkPerMatch ?? OR_WALK_PER_MATCH,
              }
            : undefined,
      })
    : (walked ?? wherePage({ counted: await counted(), where, sort, dir, limit, offset }));
  const rows = await sqlOf(ctx.db).$queryRaw<(RawLead & { total: number })[]>(
    planEachTime(Prisma.sql`${parts.with}
    SELECT c.total, p.* FROM (${parts.counted}) c
    LEFT JOIN LATERAL (
      SELECT u.id, u.app_id, u.user_id, u.presence, u.last_heartbeat, u.name, u.email, u.phone, u.avatar,
        u.initial_referrer, u.country, u.region, u.city, u.sessions, u.last_seen, u.last_contacted, u.last_reply
      FROM users u JOIN (${parts.ids}) k ON k.id = u.id
      ORDER BY ${sort} ${dir} NULLS LAST, u.id ${dir}
    ) p ON TRUE`),
  );
  const total = rows[0]?.total ?? 0;
  return { total, users: rows.filter((r) => r.id !== null).map(fromRaw) };
}

/**
 * The list statement's parts for the one WHERE: the total as counted, and the page, which runs only when it starts
 * within the matches. Past them the page is empty, yet PostgreSQL found and sorted every match to skip them: `$email`
 * contains at offset 9,980 (8,402 matches) read them twice, 83 ms of which the page was half (1M, 2026-11-28).
 */
export function wherePage(q: {
  counted: Prisma.Sql;
  where: Prisma.Sql;
  sort: Prisma.Sql;
  dir: Prisma.Sql;
  limit: number;
  offset: number;
}): { with: Prisma.Sql; counted: Prisma.Sql; ids: Prisma.Sql } {
  const page = Prisma.sql`SELECT u.id FROM users u WHERE ${q.where}
    ORDER BY ${q.sort} ${q.dir} NULLS LAST, u.id ${q.dir} LIMIT ${q.limit} OFFSET ${q.offset}`;
  if (q.offset === 0) return { with: Prisma.empty, counted: q.counted, ids: page };
  return {
    with: Prisma.sql`WITH t AS MATERIALIZED (${q.counted})`,
    counted: Prisma.sql`SELECT total FROM t`,
    ids: oneTimeGated(Prisma.sql`(SELECT total FROM t) > ${q.offset}`, page),
  };
}

interface RawLead {
  id: bigint;
  app_id: bigint;
  user_id: string | null;
  presence: string;
  last_heartbeat: Date | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  avatar: string | null;
  initial_referrer: string | null;
  country: string | null;
  region: string | null;
  city: string | null;
  sessions: number;
  last_seen: Date | null;
  last_contacted: Date | null;
  last_reply: Date | null;
}

function fromRaw(r: RawLead): LeadRow {
  return {
    id: r.id,
    appId: r.app_id,
    userId: r.user_id,
    presence: r.presence,
    lastHeartbeat: r.last_heartbeat,
    name: r.name,
    email: r.email,
    phone: r.phone,
    avatar: r.avatar,
    initialReferrer: r.initial_referrer,
    country: r.country,
    region: r.region,
    city: r.city,
    sessions: r.sessions,
    lastSeen: r.last_seen,
    lastContacted: r.last_contacted,
    lastReply: r.last_reply,
  };
}
