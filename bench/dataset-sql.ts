import type pg from "pg";
import * as F from "./dataset-fixtures";

/**
 * The dataset as a few set-based statements on one session (no row goes through the API). Every draw is a hash of
 * the row's number (`r(g, seed)`), so the rows of different tables that must agree (a conversation, its parts, its
 * user's counters) compute the same values without being joined. The conversation fields are aggregated from the
 * parts by the rules of lib/parts/state.ts; the lead flags come from the users trigger itself; the event summaries
 * (`$event_<id>_first|_last|_count`) are aggregated from the events, as trackEvent keeps them.
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

/**
 * Users: a quarter identified (user ID, mostly email and name), 8% leads who left an email, the rest anonymous
 * visitors (leads only through a conversation or web-push). Places, names and plans skewed; last_seen skewed recent.
 */
export async function insertUsers(c: pg.Client, s: Shape): Promise<number> {
  const r = await c.query(
    `WITH b AS (
       SELECT g, pg_temp.r(g, 1) AS kind,
         ($4::text[])[pg_temp.pick(cardinality($4::text[]), g, 2, 1.7)] AS first,
         ($5::text[])[pg_temp.pick(cardinality($5::text[]), g, 3, 1.5)] AS last,
         pg_temp.pick(cardinality($7::text[]), g, 4, 2.2) AS place,
         pg_temp.pick(4, g, 14, 2.0) AS plan,
         CASE WHEN pg_temp.r(g, 10) < 0.04 THEN NULL
           ELSE $3::timestamptz - interval '400 days' * power(pg_temp.r(g, 11), 2) END AS seen
       FROM generate_series(1, $2::bigint) g
     ), k AS (
       SELECT b.*, kind < 0.25 AS ident, kind >= 0.25 AND kind < 0.33 AS captured,
         coalesce(seen, $3::timestamptz) - interval '700 days' * pg_temp.r(g, 13) AS created,
         translate(lower(first), 'áéíóúüöäèçñ''', 'aeiouuoaecn') AS f,
         translate(lower(last), 'áéíóúüöäèçñ''', 'aeiouuoaecn') AS l
       FROM b
     )
     INSERT INTO users (id, app_id, user_id, created, updated, name, email, phone, avatar, initial_referrer, country,
       region, city, sessions, last_seen, last_contacted, last_reply, props_custom, email_status, webpush_subscribed,
       timezone_offset, conversation_count)
     SELECT g, $1, CASE WHEN ident THEN 'usr_' || g END, created, coalesce(seen, created),
       CASE WHEN (ident AND pg_temp.r(g, 5) < 0.9) OR (captured AND pg_temp.r(g, 5) < 0.4) THEN first || ' ' || last END,
       CASE WHEN (ident AND pg_temp.r(g, 6) < 0.95) OR captured
         THEN f || CASE WHEN pg_temp.r(g, 7) < 0.5 THEN '.' ELSE '' END || l || g || '@'
           || ($6::text[])[pg_temp.pick(cardinality($6::text[]), g, 8, 1.8)] END,
       CASE WHEN (ident AND pg_temp.r(g, 9) < 0.35) OR (captured AND pg_temp.r(g, 9) < 0.1)
         THEN '+' || ($10::text[])[place] || ' ' || lpad(((hashint8extended(g, 15) & 2147483647) % 1000000000)::text, 9, '0')
       END,
       CASE WHEN ident AND pg_temp.r(g, 16) < 0.1 THEN 'https://avatars.example.test/' || g || '.png' END,
       CASE WHEN pg_temp.r(g, 17) < 0.6 THEN ($12::text[])[pg_temp.pick(cardinality($12::text[]), g, 18, 2)] END,
       CASE WHEN pg_temp.r(g, 19) < 0.92 THEN ($9::text[])[place] END,
       CASE WHEN pg_temp.r(g, 19) < 0.92 THEN ($8::text[])[place] END,
       CASE WHEN pg_temp.r(g, 19) < 0.92 THEN ($7::text[])[place] END,
       1 + floor(-ln(1 - pg_temp.r(g, 20)) * CASE WHEN ident THEN 12 ELSE 1.5 END)::int,
       seen, cu.last_contacted, cu.last_reply,
       CASE
         WHEN ident THEN jsonb_strip_nulls(jsonb_build_object(
           'plan', ($14::text[])[plan],
           'mrr', round(((ARRAY[0, 49, 299, 2500])[plan] * (0.5 + pg_temp.r(g, 21)))::numeric, 2),
           'company', CASE WHEN pg_temp.r(g, 22) < 0.7
             THEN ($13::text[])[pg_temp.pick(cardinality($13::text[]), g, 23, 1.3)] END,
           'signed_up', to_char(created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'),
           'beta', CASE WHEN pg_temp.r(g, 24) < 0.6 THEN pg_temp.r(g, 25) < 0.2 END,
           'interests', CASE WHEN pg_temp.r(g, 26) < 0.4 THEN to_jsonb((ARRAY[
             ($15::text[])[g % 8 + 1], ($15::text[])[(g + 3) % 8 + 1], ($15::text[])[(g + 5) % 8 + 1]
           ])[1:1 + floor(pg_temp.r(g, 27) * 3)::int]) END))
         WHEN captured THEN jsonb_build_object(
           'source', ($16::text[])[pg_temp.pick(cardinality($16::text[]), g, 28, 1.5)], 'newsletter', true)
         WHEN pg_temp.r(g, 29) < 0.3 THEN jsonb_build_object(
           'source', ($16::text[])[pg_temp.pick(cardinality($16::text[]), g, 28, 1.5)])
         ELSE '{}'::jsonb
       END,
       CASE WHEN pg_temp.r(g, 30) < 0.04 AND (ident OR captured) THEN 'unsubscribed' ELSE 'subscribed' END,
       pg_temp.r(g, 31) < CASE WHEN ident THEN 0.1 ELSE 0.03 END,
       CASE WHEN pg_temp.r(g, 19) < 0.92 THEN ($11::int[])[place] END,
       coalesce(cu.n, 0)
     FROM k LEFT JOIN (
       SELECT user_id, count(*)::int AS n, max(last_reply) AS last_reply, max(last_contacted) AS last_contacted
       FROM conv_agg GROUP BY user_id
     ) cu ON cu.user_id = k.g`,
    [
      s.appId,
      s.users,
      s.at,
      F.FIRST_NAMES,
      F.LAST_NAMES,
      F.EMAIL_DOMAINS,
      F.PLACES.map((p) => p[0]),
      F.PLACES.map((p) => p[1]),
      F.PLACES.map((p) => p[2]),
      F.PLACES.map((p) => p[3]),
      F.PLACES.map((p) => p[4]),
      F.REFERRERS,
      F.COMPANIES,
      F.PLANS,
      F.INTERESTS,
      F.SOURCES,
    ],
  );
  return r.rowCount ?? 0;
}

/** Events between a user's first visit and last_seen: identified users 5 on average, others fewer. */
export async function insertEvents(c: pg.Client, s: Shape): Promise<number> {
  const r = await c.query(
    `WITH e AS (
       SELECT u.id AS user_id, u.created, u.last_seen, u.id * 64 + j AS h,
         pg_temp.pick(cardinality($2::bigint[]), u.id * 64 + j, 51, 2.2) AS t
       FROM users u
       CROSS JOIN LATERAL generate_series(1, LEAST(60, floor(-ln(1 - pg_temp.r(u.id, 50))
         * CASE WHEN u.user_id IS NOT NULL THEN 5.5 WHEN u.email IS NOT NULL THEN 2.5 ELSE 1.5 END)::int)) j
       WHERE u.app_id = $1 AND u.last_seen IS NOT NULL
     )
     INSERT INTO events (app_id, user_id, type_id, created, props)
     SELECT $1, user_id, ($2::bigint[])[t], created + (last_seen - created) * pg_temp.r(h, 52),
       CASE t
         WHEN 1 THEN jsonb_build_object('url', ($3::text[])[pg_temp.pick(cardinality($3::text[]), h, 53, 1.6)])
         WHEN 6 THEN jsonb_build_object('amount', round((10 + 490 * pg_temp.r(h, 54))::numeric, 2), 'currency', 'USD')
         ELSE '{}'::jsonb
       END
     FROM e`,
    [s.appId, s.eventTypes, F.PAGES],
  );
  return r.rowCount ?? 0;
}

/** The per-user summaries trackEvent keeps (first, last, count per type): the `$event_<id>_*` props. */
export async function insertEventSummaries(c: pg.Client, s: Shape): Promise<number> {
  const r = await c.query(
    `INSERT INTO user_event_summaries (user_id, event_type_id, "first", "last", "count")
     SELECT user_id, type_id, min(created), max(created), count(*)::int FROM events WHERE app_id = $1
     GROUP BY user_id, type_id`,
    [s.appId],
  );
  return r.rowCount ?? 0;
}

/** Tags on a fifth of the identified users, one to three each, skewed toward the first of F.USER_TAGS. */
export async function insertUserTags(c: pg.Client, s: Shape): Promise<number> {
  const r = await c.query(
    `INSERT INTO user_tags (user_id, app_id, tag, created)
     SELECT DISTINCT ON (u.id, t.tag) u.id, $1, t.tag, u.created FROM users u
     CROSS JOIN LATERAL generate_series(1, 1 + floor(pg_temp.r(u.id, 61) * 3)::int) j
     CROSS JOIN LATERAL (SELECT ($2::text[])[pg_temp.pick(cardinality($2::text[]), u.id * 4 + j, 62, 1.8)] AS tag) t
     WHERE u.app_id = $1 AND u.user_id IS NOT NULL AND pg_temp.r(u.id, 60) < 0.2`,
    [s.appId, F.USER_TAGS],
  );
  return r.rowCount ?? 0;
}

/** The custom props' typed rows (migration *_user_prop_values), which the users trigger keeps but not while loading. */
export async function insertPropValues(c: pg.Client): Promise<number> {
  await c.query("SELECT relay_rebuild_prop_values()");
  const r = await c.query<{ n: number }>("SELECT count(*)::int AS n FROM user_prop_values");
  return r.rows[0]!.n;
}

export const BULK_TABLES = [
  "users",
  "events",
  "user_event_summaries",
  "user_tags",
  "user_prop_values",
  "conversations",
  "conversation_parts",
];

/** The secondary indexes of the bulk-loaded tables (not those behind constraints): dropped before, rebuilt after. */
export async function dropSecondaryIndexes(c: pg.Client): Promise<string[]> {
  const { rows } = await c.query<{ name: string; def: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
     FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
     WHERE t.relname = ANY($1::text[]) AND t.relnamespace = 'public'::regnamespace
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
    [BULK_TABLES],
  );
  for (const r of rows) await c.query(`DROP INDEX ${r.name}`);
  return rows.map((r) => r.def);
}

/** Foreign-key checks are skipped while loading (the rows are consistent by construction); the lead trigger runs. */
export async function setChecks(c: pg.Client, on: boolean): Promise<void> {
  for (const t of BULK_TABLES) await c.query(`ALTER TABLE ${t} ${on ? "ENABLE" : "DISABLE"} TRIGGER ALL`);
  if (!on) await c.query("ALTER TABLE users ENABLE TRIGGER users_lead_flags");
}

export async function resetSequences(c: pg.Client): Promise<void> {
  const keyed = new Set(["user_event_summaries", "user_tags", "user_prop_values"]);
  for (const t of BULK_TABLES.filter((t) => !keyed.has(t))) {
    await c.query(
      `SELECT setval(pg_get_serial_sequence('${t}', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM ${t}), false)`,
    );
  }
}
