import { Prisma } from "../db/generated/client";
import { customLeadRows } from "./compile-custom";
import type { Condition } from "./filters";

/**
 * One condition's (v2) leads as rows of a side table that carries the user's lead flag (user_prop_values, user_tags,
 * kept by users triggers), at most one row per lead: `in`, the leads with a matching row; otherwise the leads with
 * none. So its exact total is an index-only count of those rows (or the leads minus it), and its page can test
 * each lead walked against a hash of them (typed-walk.ts), neither joining the matches to the users.
 */
export interface LeadRows {
  /** The matching lead rows' user IDs. */
  ids: Prisma.Sql;
  /** Their number. */
  count: Prisma.Sql;
  in: boolean;
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
  return customLeadRows(c, appId, now);
}

/** The statement of the exact total (one `total` column), given the app's kept count of v2 leads. */
export function leadRowsTotal(rows: LeadRows, leads: Prisma.Sql): Prisma.Sql {
  return rows.in
    ? Prisma.sql`SELECT ${rows.count}::int AS total`
    : Prisma.sql`SELECT (${leads} - ${rows.count})::int AS total`;
}
