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
      WHERE p.type = 'reply_user'
      GROUP BY 1
    ), fr AS (
      SELECT a.conversation_id, cs.created AS started, x.from_admin_id AS admin_id,
        extract(epoch FROM x.created - a.at)::float8 AS secs
      FROM asked a JOIN cs ON cs.id = a.conversation_id
      CROSS JOIN LATERAL (
        SELECT q.created, q.from_admin_id FROM conversation_parts q
        WHERE q.conversation_id = a.conversation_id AND q.type = 'reply_admin' AND q.created >= a.at
        ORDER BY q.created, q.id LIMIT 1
      ) x
    )`;
}
