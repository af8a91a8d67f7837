import type { Tx } from "../db/client";
import { effectivePresence } from "../user-model/presence-state";

/**
 * Whether the visitor is where a `stay` trigger wants them as its timeout ends: on the site (online or idle by
 * their heartbeats) and, for `page`, on the page whose `$page_view` triggered the send (the page their last
 * heartbeat showed; the messenger beats at once on a navigation). A closed tab still counts as there until the
 * presence TTL runs out; a trigger event gone from the log (48 hours) no longer names a page.
 */
export async function stillThere(tx: Tx, sendId: bigint, stay: "page" | "site", now: Date): Promise<boolean> {
  const [row] = await tx.$queryRaw<
    { presence: string; last_heartbeat: Date | null; page: string | null; trigger_url: string | null }[]
  >`
    SELECT u.presence, u.last_heartbeat, u.presence_details ->> 'page_url' AS page,
      l.payload #>> '{props,url}' AS trigger_url
    FROM message_sends s JOIN users u ON u.id = s.user_id
    LEFT JOIN event_log l ON l.id = s.trigger_event_id
    WHERE s.id = ${sendId}`;
  if (!row || effectivePresence(row.presence, row.last_heartbeat, now.getTime()) === "offline") return false;
  return stay === "site" || (row.trigger_url !== null && row.page === row.trigger_url);
}
