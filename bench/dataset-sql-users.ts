import type pg from "pg";
import * as F from "./dataset-fixtures";
import type { Shape } from "./dataset-sql";

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

/** The per-user summaries trackEvent keeps (first, last, count per type, the lead flag): the `$event_<id>_*` props. */
export async function insertEventSummaries(c: pg.Client, s: Shape): Promise<number> {
  const r = await c.query(
    `INSERT INTO user_event_summaries (user_id, event_type_id, "first", "last", "count", lead)
     SELECT e.user_id, e.type_id, min(e.created), max(e.created), count(*)::int, bool_or(u.is_lead)
     FROM events e JOIN users u ON u.id = e.user_id WHERE e.app_id = $1
     GROUP BY e.user_id, e.type_id`,
    [s.appId],
  );
  return r.rowCount ?? 0;
}

/** Tags on a fifth of the identified users, one to three each, skewed toward the first of F.USER_TAGS. */
export async function insertUserTags(c: pg.Client, s: Shape): Promise<number> {
  const r = await c.query(
    `INSERT INTO user_tags (user_id, app_id, tag, created, lead)
     SELECT DISTINCT ON (u.id, t.tag) u.id, $1, t.tag, u.created, u.is_lead FROM users u
     CROSS JOIN LATERAL generate_series(1, 1 + floor(pg_temp.r(u.id, 61) * 3)::int) j
     CROSS JOIN LATERAL (SELECT ($2::text[])[pg_temp.pick(cardinality($2::text[]), u.id * 4 + j, 62, 1.8)] AS tag) t
     WHERE u.app_id = $1 AND u.user_id IS NOT NULL AND pg_temp.r(u.id, 60) < 0.2`,
    [s.appId, F.USER_TAGS],
  );
  return r.rowCount ?? 0;
}

/**
 * The custom props' typed rows and list items (migrations *_user_prop_values, *_prop_list_items), which the users
 * triggers keep but not while loading.
 */
export async function insertPropValues(c: pg.Client): Promise<number> {
  await c.query("SELECT relay_rebuild_prop_values()");
  const r = await c.query<{ n: number }>(
    "SELECT (SELECT count(*) FROM user_prop_values)::int + (SELECT count(*) FROM user_prop_items)::int AS n",
  );
  return r.rows[0]!.n;
}
