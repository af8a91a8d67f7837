import { Prisma } from "../db/generated/client";
import type { Range } from "./range";

/**
 * CTEs ending in `fr`: one row per conversation started in the range (and passing `filter` on `c`) that was
 * answered: `started` (the conversation's creation), `admin_id` and `secs`, from the visitor's first message to
 * the first operator reply at or after it. Conversations never asked or never answered have no row.
 */
export function firstResponses(r: Range, filter: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    cs AS (
      SELECT c.id, c.created FROM conversations c
      WHERE ${filter} AND c.created >= ${r.lo} AND c.created < ${r.hi}
    ), asked AS (
      SELECT p.conversation_id, min(p.created) AS at
      FROM conversation_parts p JOIN cs ON cs.id = p.conversation_id
      WHERE p.app_id = ${r.appId} AND p.type = 'reply_user'
      GROUP BY 1
    ), fr AS (
      -- Set-based (one join, one sort) rather than a probe per conversation: a year holds every conversation.
      SELECT DISTINCT ON (a.conversation_id) a.conversation_id, cs.created AS started,
        q.from_admin_id AS admin_id, extract(epoch FROM q.created - a.at)::float8 AS secs
      FROM asked a JOIN cs ON cs.id = a.conversation_id
      JOIN conversation_parts q ON q.conversation_id = a.conversation_id
      WHERE q.app_id = ${r.appId} AND q.type = 'reply_admin' AND q.created >= a.at
      ORDER BY a.conversation_id, q.created, q.id
    )`;
}
