import { Prisma } from "../db/generated/client";
import { assertApp, type Ctx } from "../auth/context";
import { invalid, lookupFailed } from "../domain/errors";
import type { Queryable } from "../db/sql";
import { DAY_PROBLEM, parseDay } from "../contract/dates";
import { MAX_REPORT_DAYS } from "./schemas";

export interface ReportInput {
  appId: bigint;
  /** First and last day of the range (inclusive), YYYY-MM-DD in the app's time zone. */
  from: string;
  to: string;
  /** The work of this operator (workFilter): conversations they first owned, their closes and replies. */
  operator?: bigint;
  /** Conversations of this channel. */
  channel?: bigint;
}

/** A checked range: its days, its zone, and the SQL pieces every series shares. */
export interface Range {
  appId: bigint;
  from: string;
  to: string;
  days: string[];
  timeZone: string;
  operator: bigint | null;
  channel: bigint | null;
  /** The range's bounds as instants: midnight of `from` and of the day after `to`, in the app's zone. */
  lo: Prisma.Sql;
  hi: Prisma.Sql;
}

/** Days of a calendar range; pure date arithmetic, the zone only matters for the instants. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = parseDay(from)!; t <= parseDay(to)!; t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

export async function reportRange(ctx: Ctx, input: ReportInput): Promise<Range> {
  assertApp(ctx, input.appId);
  const a = parseDay(input.from);
  const b = parseDay(input.to);
  const problems: Record<string, string> = {};
  if (a === undefined) problems.from = DAY_PROBLEM;
  if (b === undefined) problems.to = DAY_PROBLEM;
  if (a !== undefined && b !== undefined) {
    if (b < a) problems.to = "must not be before from";
    else if ((b - a) / 86_400_000 + 1 > MAX_REPORT_DAYS)
      problems.to = `at most ${MAX_REPORT_DAYS} days after from`;
  }
  if (Object.keys(problems).length) throw invalid(problems);
  const app = await ctx.db.app.findUnique({ where: { id: input.appId }, select: { timeZone: true } });
  if (!app) throw lookupFailed("No such app.");
  const tz = app.timeZone;
  return {
    appId: input.appId,
    from: input.from,
    to: input.to,
    days: daysBetween(input.from, input.to),
    timeZone: tz,
    operator: input.operator ?? null,
    channel: input.channel ?? null,
    lo: Prisma.sql`(${input.from}::date::timestamp AT TIME ZONE ${tz})`,
    hi: Prisma.sql`((${input.to}::date + 1)::timestamp AT TIME ZONE ${tz})`,
  };
}

/**
 * The day of an instant column in the app's zone, as its 1-based index in `r.days` (0 before, days.length + 1
 * after): a binary search among the range's midnights, computed once per statement, where converting every
 * row's instant to the zone and formatting it cost several times the scan.
 */
export const dayIndex = (r: Range, col: Prisma.Sql) =>
  Prisma.sql`width_bucket(${col}, (
    SELECT array_agg(d::timestamp AT TIME ZONE ${r.timeZone} ORDER BY d)
    FROM generate_series(${r.from}::date, ${r.to}::date + 1, interval '1 day') d))`;

/** Rows carrying a day index (dayIndex), by their day. */
export function byDay<T extends { i: number }>(r: Range, rows: T[]): Map<string, T> {
  return new Map(rows.flatMap((x) => (r.days[x.i - 1] === undefined ? [] : [[r.days[x.i - 1]!, x]])));
}

/**
 * The operator filter follows who did the work at the time, never the current assignee (a reassignment must not
 * rewrite past figures; migration *_reports_follow_the_work): a conversation's start counts for its first owner,
 * a close for its author, a visitor's message for the assignee when it was written, a first response for its
 * responder. `op` is the column or expression naming that operator; the channel is the facts row `f`'s.
 */
export function workFilter(r: Range, op: Prisma.Sql): Prisma.Sql {
  const parts = [Prisma.sql`TRUE`];
  if (r.operator !== null) parts.push(Prisma.sql`${op} = ${r.operator}`);
  if (r.channel !== null) parts.push(Prisma.sql`f.channel_id = ${r.channel}`);
  return Prisma.join(parts, " AND ");
}

/** The first owner of the conversation of a facts row `f` (what its start counts for; null for none). */
export const firstOwner = Prisma.sql`NULLIF(relay_first_owner(f.conversation_id, f.assignee_id), 0)`;

export function envelopeOf<T>(r: Range, series: T[]) {
  return { time_zone: r.timeZone, from: r.from, to: r.to, operator: r.operator, channel: r.channel, series };
}

/**
 * Whether the 15-minute rollups (report_quarters) add up exactly to the range's days and hours: whether each of
 * its midnights falls on a quarter hour of UTC. True of every zone since 1972 (offsets are whole quarter hours);
 * false for ranges in the era of local mean time (Africa/Monrovia was -00:44:30), which the raw rows answer.
 */
export async function quartersExact(db: Queryable, r: Range): Promise<boolean> {
  const rows = await db.$queryRaw<{ ok: boolean | null }[]>(Prisma.sql`
    SELECT bool_and(extract(epoch FROM (d::timestamp AT TIME ZONE ${r.timeZone}))::numeric % 900 = 0) AS ok
    FROM generate_series(${r.from}::date, ${r.to}::date + 1, interval '1 day') d`);
  return rows[0]?.ok === true;
}

/**
 * Whether the range is answered from the 15-minute rollups: its days are unions of buckets (quartersExact) and
 * its filters are IDs of 1 or more (report_filter_quarters keeps 0 for no assignee or channel, which an ID of 0
 * must not match: no conversation has one).
 */
export async function rollupUsable(db: Queryable, r: Range): Promise<boolean> {
  return (r.operator ?? 1n) > 0n && (r.channel ?? 1n) > 0n && quartersExact(db, r);
}

/** The rollup a range reads: per app, or per app, operator who did the work (workFilter) and channel when filtered. */
export const quartersTable = (r: Range) =>
  r.operator === null && r.channel === null
    ? Prisma.sql`report_quarters`
    : Prisma.sql`report_filter_quarters`;

/** The rows of a rollup `q` (quartersTable) within the range and its filters. */
export function quartersFilter(r: Range): Prisma.Sql {
  const parts = [Prisma.sql`q.app_id = ${r.appId} AND q.at >= ${r.lo} AND q.at < ${r.hi}`];
  if (r.operator !== null) parts.push(Prisma.sql`q.assignee_id = ${r.operator}`);
  if (r.channel !== null) parts.push(Prisma.sql`q.channel_id = ${r.channel}`);
  return Prisma.join(parts, " AND ");
}
