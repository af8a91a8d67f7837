import type pg from "pg";
import * as F from "./dataset-fixtures";

/**
 * The dataset as a few set-based statements on one session (no row goes through the API). Every draw is a hash of
 * the row's number (`r(g, seed)`), so the rows of different tables that must agree (a conversation, its parts, its
 * user's counters) compute the same values without being joined. The conversation fields are aggregated from the
 * parts by the rules of lib/parts/state.ts; the lead flags come from the users trigger itself; the event summaries
 * (`$event_<id>_first|_last|_count`) are aggregated from the events, as trackEvent keeps them. Conversations and
 * their parts here; users, events and tags in dataset-sql-users.ts; the loading switches in dataset-load.ts.
 */
export interface Shape {
  appId: bigint;
  users: number;
  conversations: number;
  /** The default admin first, then the other operators of the app. */
  admins: bigint[];
  channels: bigint[];
  /** Event type IDs in the order of F.EVENT_TYPES. */
  eventTypes: bigint[];
  /** "Now" of the dataset: every relative time is counted from it. */
  at: Date;
}

export const SESSION_SETUP = [
  "SET synchronous_commit = off",
  "SET maintenance_work_mem = '512MB'",
  "SET work_mem = '256MB'",
  // Uniform in [0, 1) from a row number and a seed; `pick` a 1-based index skewed toward the first entries.
  `CREATE FUNCTION pg_temp.r(g bigint, s bigint) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
     $$ SELECT (hashint8extended(g, s) & 9007199254740991)::float8 / 9007199254740992 $$`,
  `CREATE FUNCTION pg_temp.pick(n int, g bigint, s bigint, skew float8) RETURNS int LANGUAGE sql IMMUTABLE AS
     $$ SELECT 1 + floor(n * power(pg_temp.r(g, s), skew))::int $$`,
];

/** Parts first: `20 ± d` parts per conversation (pairs balance out, so the total is exactly 20 per conversation). */
export async function insertParts(c: pg.Client, s: Shape): Promise<number> {
  const step = Math.floor(s.users / s.conversations);
  const r = await c.query(
    `WITH conv AS (
       SELECT k, (k + 1) / 2 AS pair, floor(pg_temp.r((k + 1) / 2, 1) * 19)::int AS d,
         pg_temp.r(k, 23) AS outcome, pg_temp.r(k, 24) < 0.8 AS assigned,
         ($3::bigint[])[pg_temp.pick(cardinality($3::bigint[]), k, 25, 1.6)] AS admin,
         interval '1 minute' * (1 + pg_temp.r(k, 22) * 90) AS gap,
         (k - 1) * $6::bigint + 1 + floor(pg_temp.r(k, 20) * $6::bigint)::bigint AS user_id
       FROM generate_series(1, $2::bigint) k
     ), sized AS (
       SELECT conv.*, CASE WHEN k % 2 = 1 THEN 20 + d ELSE 20 - d END AS n,
         (pair - 1) * 40 + CASE WHEN k % 2 = 1 THEN 0 ELSE 20 + d END AS base
       FROM conv
     ), timed AS (
       SELECT sized.*, $7::timestamptz - interval '180 days' * power(pg_temp.r(k, 21), 1.5) - gap * n AS start
       FROM sized
     ), typed AS (
       SELECT t.k, t.base + j AS id, j, t.start + t.gap * (j - 1) AS created, t.user_id, t.admin,
         CASE
           WHEN j = 1 THEN 'reply_user'
           WHEN j = t.n AND t.outcome < 0.65 THEN 'closed'
           WHEN j = t.n AND t.outcome < 0.70 THEN 'delayed'
           WHEN j = 2 AND t.assigned THEN 'assigned'
           WHEN pg_temp.r(t.k * 64 + j, 26) < 0.06 THEN 'note'
           WHEN pg_temp.r(t.k * 64 + j, 27) < 0.5 THEN 'reply_admin'
           ELSE 'reply_user'
         END AS type
       FROM timed t CROSS JOIN LATERAL generate_series(1, t.n) j
     ), marked AS (
       SELECT typed.*, max(j) FILTER (WHERE type = 'reply_admin') OVER w AS admin_j,
         max(j) FILTER (WHERE type = 'reply_user') OVER w AS user_j
       FROM typed WINDOW w AS (PARTITION BY k)
     )
     INSERT INTO conversation_parts (id, conversation_id, app_id, created, body, body_json, read, direction, type,
       sent_via, part_group, from_admin_id, from_user_id, assignee_id)
     SELECT id, k, $1, created,
       CASE type
         WHEN 'reply_user' THEN ($4::text[])[pg_temp.pick(cardinality($4::text[]), id, 30, 1.4)]
         WHEN 'reply_admin' THEN ($5::text[])[pg_temp.pick(cardinality($5::text[]), id, 31, 1.4)]
         WHEN 'note' THEN ($8::text[])[pg_temp.pick(cardinality($8::text[]), id, 32, 1)]
         ELSE ''
       END,
       CASE WHEN type = 'delayed' THEN jsonb_build_object('delayed_until',
         floor(extract(epoch FROM $7::timestamptz + interval '1 day' * (60 + 640 * pg_temp.r(k, 28))))::bigint)
         ELSE '{}'::jsonb END,
       -- Unread: the visitor's messages after the last answer, and the answers after the visitor's last message.
       CASE type WHEN 'reply_user' THEN j < coalesce(admin_j, 0) WHEN 'reply_admin' THEN j < coalesce(user_j, 0)
         ELSE true END,
       CASE WHEN type = 'reply_user' THEN 'u2a' ELSE 'a2u' END, type,
       CASE WHEN type = 'reply_user' THEN 'api' ELSE 'web_admin' END, id,
       CASE WHEN type = 'reply_user' THEN NULL ELSE admin END,
       CASE WHEN type = 'reply_user' THEN user_id END,
       CASE WHEN type = 'assigned' THEN admin END
     FROM marked`,
    [s.appId, s.conversations, s.admins, F.USER_MESSAGES, F.ADMIN_MESSAGES, step, s.at, F.NOTES],
  );
  return r.rowCount ?? 0;
}

/** Per conversation, the fields that follow from its parts (applyPart's rules, folded over the parts in ID order). */
export async function aggregateConversations(c: pg.Client, s: Shape): Promise<void> {
  await c.query(
    `CREATE TEMP TABLE conv_agg AS
     SELECT conversation_id AS k, max(from_user_id) AS user_id, count(*)::int AS parts_count,
       count(*) FILTER (WHERE type = 'reply_user' AND NOT read)::int AS unread,
       min(created) AS created, max(created) AS last_update, max(id) AS part_last_id,
       max(id) FILTER (WHERE type IN ('reply_user', 'reply_admin', 'note', 'article')) AS important_part_last_id,
       max(id) FILTER (WHERE type IN ('reply_user', 'reply_admin', 'article')) AS reply_last_id,
       max(id) FILTER (WHERE type = 'reply_user') AS user_part,
       max(id) FILTER (WHERE type IN ('reply_admin', 'article')) AS admin_part,
       max(from_admin_id) FILTER (WHERE type IN ('reply_admin', 'article')) AS last_admin_id,
       max(assignee_id) FILTER (WHERE type = 'assigned') AS assignee_id,
       max(id) FILTER (WHERE type = 'closed') AS closed_part,
       max(id) FILTER (WHERE type IN ('reopened', 'reply_user', 'delayed')) AS open_part,
       max(id) FILTER (WHERE type = 'delayed') AS delayed_part,
       max((body_json ->> 'delayed_until')::bigint) FILTER (WHERE type = 'delayed') AS delayed_until,
       max(created) FILTER (WHERE type = 'reply_user') AS last_reply,
       max(created) FILTER (WHERE type IN ('reply_admin', 'article')) AS last_contacted
     FROM conversation_parts WHERE app_id = $1 GROUP BY conversation_id`,
    [s.appId],
  );
}

export async function insertConversations(c: pg.Client, s: Shape): Promise<number> {
  const r = await c.query(
    `INSERT INTO conversations (id, app_id, user_id, channel_id, created, last_update, read, replied, closed,
       parts_count, unread_parts_count, assignee_id, last_admin_id, delayed_until, tags, has_user_replies, answered,
       part_last_id, important_part_last_id, reply_last_id)
     SELECT k, $1, user_id,
       CASE WHEN pg_temp.r(k, 40) < 0.2 THEN NULL
         ELSE ($2::bigint[])[pg_temp.pick(cardinality($2::bigint[]), k, 41, 1.5)] END,
       created, last_update, unread = 0, admin_part IS NOT NULL,
       coalesce(closed_part > coalesce(open_part, 0), false), parts_count, unread, assignee_id, last_admin_id,
       CASE WHEN delayed_part = part_last_id THEN to_timestamp(delayed_until) END,
       CASE WHEN pg_temp.r(k, 42) < 0.25
         THEN string_to_array(($3::text[])[pg_temp.pick(cardinality($3::text[]), k, 43, 1.5)], ',')
         ELSE '{}'::text[] END,
       user_part IS NOT NULL, coalesce(admin_part > coalesce(user_part, 0), false),
       part_last_id, important_part_last_id, reply_last_id
     FROM conv_agg`,
    [s.appId, s.channels, F.CONVERSATION_TAGS.map((t) => t.join(","))],
  );
  return r.rowCount ?? 0;
}
