import { sqlOf } from "../db/sql";
import type { Ctx } from "../auth/context";
import { assertApp } from "../auth/context";
import { INBOX_SCOPE } from "./list";
import type { Serialized } from "../api/schemas";
import type { Counts, CountsResult } from "./schemas";

const KEYS = ["open", "closed", "delayed", "mine", "unassigned"] as const;

/**
 * The Inbox tabs' counters, over what the Inbox shows (rule 1 of the conversations list): open (neither closed nor
 * snoozed), closed, delayed (snoozed, not closed), mine (open, assigned to `admin`: by default the operator
 * asking, or the app's default admin for a token) and unassigned (open). Read from the counters the trigger
 * `conversations_counts` keeps (a few rows per app, not a scan of its conversations); snoozes already over but not
 * yet cleared by the sweeper (at most 15 s old, found through the delayed_until index) are moved back to open.
 * Then the same per channel, `id` 0 standing for conversations without one; every channel of the app is listed.
 */
export async function countConversations(
  ctx: Ctx,
  input: { appId: bigint; admin?: bigint },
): Promise<Serialized<CountsResult>> {
  assertApp(ctx, input.appId);
  const admin = input.admin ?? (ctx.actor.kind === "admin" ? ctx.actor.adminId : null);
  const rows = await sqlOf(ctx.db).$queryRaw<(Counts & { id: bigint | null })[]>`
    WITH me AS (
      SELECT COALESCE(${admin}::bigint, (SELECT default_admin_id FROM apps WHERE id = ${input.appId})) AS admin_id
    ), woke AS (
      SELECT COALESCE(c.channel_id, 0) AS channel_id, COALESCE(c.assignee_id, 0) AS assignee_id, count(*)::int AS n
      FROM conversations c
      WHERE c.app_id = ${input.appId} AND c.delayed_until <= now() AND NOT c.closed AND ${INBOX_SCOPE}
      GROUP BY 1, 2
    ), k AS (
      SELECT channel_id, assignee_id, closed, snoozed, n FROM conversation_counts WHERE app_id = ${input.appId}
      UNION ALL SELECT channel_id, assignee_id, false, true, -n FROM woke
      UNION ALL SELECT channel_id, assignee_id, false, false, n FROM woke
    ), per AS (
      SELECT NULLIF(k.channel_id, 0) AS channel_id,
        sum(k.n) FILTER (WHERE NOT k.closed AND NOT k.snoozed)::int AS open,
        sum(k.n) FILTER (WHERE k.closed)::int AS closed,
        sum(k.n) FILTER (WHERE NOT k.closed AND k.snoozed)::int AS delayed,
        sum(k.n) FILTER (WHERE NOT k.closed AND NOT k.snoozed AND k.assignee_id = me.admin_id)::int AS mine,
        sum(k.n) FILTER (WHERE NOT k.closed AND NOT k.snoozed AND k.assignee_id = 0)::int AS unassigned
      FROM k CROSS JOIN me
      GROUP BY 1
    )
    SELECT ch.id, COALESCE(per.open, 0)::int AS open, COALESCE(per.closed, 0)::int AS closed,
      COALESCE(per.delayed, 0)::int AS delayed, COALESCE(per.mine, 0)::int AS mine,
      COALESCE(per.unassigned, 0)::int AS unassigned
    FROM (SELECT id FROM channels WHERE app_id = ${input.appId} UNION ALL SELECT NULL::bigint) ch
    LEFT JOIN per ON per.channel_id IS NOT DISTINCT FROM ch.id
    ORDER BY ch.id NULLS FIRST`;
  const total: Counts = { open: 0, closed: 0, delayed: 0, mine: 0, unassigned: 0 };
  for (const r of rows) for (const k of KEYS) total[k] += r[k];
  return {
    ...total,
    channels: rows.map(
      (r) =>
        ({ id: r.id ?? 0n, ...Object.fromEntries(KEYS.map((k) => [k, r[k]])) }) as Counts & { id: bigint },
    ),
  };
}
