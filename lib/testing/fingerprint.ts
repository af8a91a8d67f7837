import type { Db } from "../db/client";

/**
 * A cheap picture of what is stored: row counts and highest IDs of the tables requests write to, and the event
 * log's head. Equal before and after a refused request means the request wrote nothing (rows updated in place
 * aside: refusals are checked before any service runs, and updates without inserts are rare enough to accept).
 */
export async function fingerprint(db: Db): Promise<string> {
  const rows = await db.$queryRaw<{ t: string; n: bigint; m: bigint | null }[]>`
    SELECT 'apps' AS t, count(*) AS n, max(id) AS m FROM apps
    UNION ALL SELECT 'admins', count(*), max(id) FROM admins
    UNION ALL SELECT 'app_admins', count(*), NULL FROM app_admins
    UNION ALL SELECT 'api_tokens', count(*), max(id) FROM api_tokens
    UNION ALL SELECT 'revoked_tokens', count(*), NULL FROM api_tokens WHERE revoked_at IS NOT NULL
    UNION ALL SELECT 'channels', count(*), max(id) FROM channels
    UNION ALL SELECT 'users', count(*), max(id) FROM users
    UNION ALL SELECT 'event_types', count(*), max(id) FROM event_types
    UNION ALL SELECT 'events', count(*), max(id) FROM events
    UNION ALL SELECT 'user_event_summaries', count(*), NULL FROM user_event_summaries
    UNION ALL SELECT 'segments', count(*), max(id) FROM segments
    UNION ALL SELECT 'user_notes', count(*), max(id) FROM user_notes
    UNION ALL SELECT 'user_tags', count(*), NULL FROM user_tags
    UNION ALL SELECT 'conversations', count(*), max(id) FROM conversations
    UNION ALL SELECT 'conversation_parts', count(*), max(id) FROM conversation_parts
    UNION ALL SELECT 'attachments', count(*), max(id) FROM attachments
    UNION ALL SELECT 'webhook_subscriptions', count(*), max(id) FROM webhook_subscriptions
    UNION ALL SELECT 'webhook_deliveries', count(*), max(id) FROM webhook_deliveries
    UNION ALL SELECT 'event_log', count(*), max(id) FROM event_log
    UNION ALL SELECT 'import_jobs', count(*), max(id) FROM import_jobs`;
  return rows.map((r) => `${r.t}:${r.n}/${r.m ?? "-"}`).join(" ");
}
