import { Prisma } from "../db/generated/client";
import { eventSummaryMatch } from "./compile";
import { customLeadRows } from "./compile-custom";
import type { Condition } from "./filters";

/**
 * One condition's (v2) leads as rows of a side table that carries the user's lead flag (user_prop_values, user_tags,
 * user_event_summaries, kept by users triggers), at most one row per lead: `in`, the leads with a matching row;
 * otherwise the leads with none. So its exact total is an index-only count of those rows (or the leads minus it),
 * and its page can test each lead walked against a hash of them (typed-walk.ts), neither joining the matches to the
 * users.
 */
export interface LeadRows {
  /** The matching lead rows' user IDs. */
  ids: Prisma.Sql;
  /** Their number. */
  count: Prisma.Sql;
  in: boolean;
  /** For an event condition: the type whose summaries `s` the rows are, and the rows' condition over them. */
  summaries?: { typeId: bigint; where: Prisma.Sql };
}

export function leadRows(c: Condition, appId: bigint, now: Date): LeadRows | null {
  if (c.prop.kind === "tag") {
    if (c.value.kind !== "string") return null;
    const where = Prisma.sql`t.app_id = ${appId} AND t.tag = ${c.value.s} AND t.lead`;
    return {
      ids: Prisma.sql`SELECT t.user_id FROM user_tags t WHERE ${where}`,
      count: Prisma.sql`(SELECT count(*) FROM user_tags t WHERE ${where})`,
      in: true,
    };
  }
  const event = eventSummaryMatch(c, now);
  if (event) {
    // Summaries hold no app: the type's own (a one-time test) keeps another app's type from counting its users.
    const where = Prisma.sql`s.event_type_id = ${event.typeId} AND ${event.row} AND s.lead = TRUE
      AND EXISTS (SELECT 1 FROM event_types et WHERE et.id = ${event.typeId} AND et.app_id = ${appId})`;
    return {
      ids: Prisma.sql`SELECT s.user_id FROM user_event_summaries s WHERE ${where}`,
      count: Prisma.sql`(SELECT count(*) FROM user_event_summaries s WHERE ${where})`,
      in: !event.none,
      summaries: { typeId: event.typeId, where },
    };
  }
  return customLeadRows(c, appId, now);
}

/** The statement of the exact total (one `total` column), given the app's kept count of v2 leads. */
export function leadRowsTotal(rows: LeadRows, leads: Prisma.Sql): Prisma.Sql {
  return rows.in
    ? Prisma.sql`SELECT ${rows.count}::int AS total`
    : Prisma.sql`SELECT (${leads} - ${rows.count})::int AS total`;
}

/**
 * The page of an event condition's leads sorted by a part of the same type (`$event_<id>_count` descending): read
 * from the type's summaries index in (value, user) order, the sort's own tie-break, with no lead joined or sorted.
 * Null where the sort is another prop, or where the condition keeps users with no summary (their value is NULL).
 */
export function summariesPage(
  rows: LeadRows,
  sort: { typeId: bigint; part: "first" | "last" | "count" } | undefined,
  dir: "ASC" | "DESC",
  limit: number,
  offset: number,
): Prisma.Sql | null {
  const s = rows.summaries;
  if (!s || !rows.in || !sort || sort.typeId !== s.typeId) return null;
  const col = Prisma.raw(sort.part === "count" ? "s.count" : `s."${sort.part}"`);
  const d = Prisma.raw(dir);
  return Prisma.sql`SELECT s.user_id AS id FROM user_event_summaries s WHERE ${s.where}
    ORDER BY ${col} ${d}, s.user_id ${d} LIMIT ${limit} OFFSET ${offset}`;
}
