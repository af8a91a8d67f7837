import { sqlOf } from "../db/sql";
import { parseId } from "../contract/zod";
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";
import type { Ctx } from "../auth/context";
import { processWide } from "../config/process-wide";
import { appendedCommitted, appendLogCtes } from "../eventlog/append";
import { appChannel } from "../contract/socket";
import { webhookTargets } from "../eventlog/fan-out";
import type { UserRef } from "../users/resolve";
import { eventFromSql, type EventRow, type EventSqlRow } from "./serialize";

export interface TrackEventInput {
  user: UserRef;
  /** The event type's name (1 to 255 characters); a new name makes a new type. */
  event: string;
  params?: Record<string, unknown>;
  created?: Date;
}

interface Pending {
  user: { uid: string | null; ext: string | null };
  name: string;
  created: Date;
  props: Record<string, unknown>;
  done: (row: EventRow | undefined) => void;
}

interface Group {
  queue: Pending[];
  writing: boolean;
}

/** Events written by one statement at most; more wait for the next. */
const MAX_BATCH = 500;
/** Process-wide, like the driver it writes on: every bundle's ingest joins the same groups. */
const groups = processWide("events.groups", () => new Map<bigint, Group>());

/**
 * Event ingest, the API's hottest write, with group commit: while one statement writes an app's events, the events
 * that arrive meanwhile queue and are written together by the next (one at a time, so alone an event waits for
 * nothing). Served here: an app's token (or its messenger visitor) tracking an event of an existing user. It
 * answers undefined for the rest (a user to create, another app's or an unknown user, a type a concurrent request
 * is creating, a statement that failed), having written nothing of that event, and trackEvent's transaction serves
 * it and tells the errors.
 */
export function trackEventGrouped(ctx: Ctx, input: TrackEventInput): Promise<EventRow | undefined> {
  if (ctx.actor.kind !== "token" && ctx.actor.kind !== "visitor") return Promise.resolve(undefined);
  const appId = ctx.actor.appId;
  const ref = input.user;
  if (ref.app !== undefined && ref.app !== appId) return Promise.resolve(undefined);
  // An ID beyond bigint would fail the statement the whole group shares.
  if (!ref.by_user_id && parseId(ref.id) === undefined) return Promise.resolve(undefined);
  return new Promise((done) => {
    let g = groups.get(appId);
    if (!g) groups.set(appId, (g = { queue: [], writing: false }));
    g.queue.push({
      user: ref.by_user_id ? { uid: null, ext: ref.id } : { uid: ref.id, ext: null },
      name: input.event,
      created: input.created ?? new Date(),
      props: input.params ?? {},
      done,
    });
    if (!g.writing) void drain(ctx.db, appId, g);
  });
}

async function drain(db: Db, appId: bigint, g: Group): Promise<void> {
  g.writing = true;
  try {
    while (g.queue.length) {
      const batch = g.queue.splice(0, MAX_BATCH);
      const rows = await writeEvents(db, appId, batch).catch((err: unknown) => {
        // Nothing of the batch was written (one statement): each of its events goes through the transaction.
        console.error("grouped event ingest failed; events retried one by one", err);
        return new Map<number, EventRow>();
      });
      batch.forEach((p, k) => p.done(rows.get(k)));
    }
  } finally {
    g.writing = false;
    if (!g.queue.length) groups.delete(appId);
  }
}

interface Row extends EventSqlRow {
  k: number;
  /** On the first row only: every row carrying them would parse them once per event. */
  log_ids: bigint[] | null;
  log_types: string[] | null;
}

/**
 * One statement, its own transaction, in this order: users share-locked first (their foreign-key checks would
 * otherwise run at the end of the statement, after rows other writers wait for), then the summaries (in key order,
 * so that two batches lock alike), then the log rows through the log's one writer (appendLogCtes, after the
 * summaries: its writer lock, the rows, the webhook deliveries). One `event` row per event; one
 * `user_props_changed` row per user and type, after that pair's last event, with the summary as the batch leaves it.
 * The users are locked FOR SHARE, not the foreign key's FOR KEY SHARE: a new summary's trigger reads its user's lead
 * flag under that lock (migration *_event_summaries_lead). Taken before any summary, it cannot deadlock with a change
 * of the flag, which holds the user's row and then updates the user's summaries.
 */
async function writeEvents(db: Db, appId: bigint, batch: Pending[]): Promise<Map<number, EventRow>> {
  const input = JSON.stringify(
    batch.map((p, k) => ({
      k,
      uid: p.user.uid,
      ext: p.user.ext,
      name: p.name,
      created: p.created.toISOString(),
      props: p.props,
    })),
  );
  const sql = sqlOf(db);
  // The log rows' kinds depend on their type alone: matched once per type, keyed by it in the statement.
  const targets = await webhookTargets(
    sql,
    ["event", "user_props_changed"].map((type) => ({ key: type, appId, type, payload: null })),
  );
  const rows = await sql.$queryRaw<Row[]>(Prisma.sql`
    WITH i AS (
      SELECT * FROM jsonb_to_recordset(${input}::jsonb)
        AS i(k int, uid bigint, ext text, name text, created timestamptz, props jsonb)
    ),
    u AS MATERIALIZED (
      SELECT i.k, users.id AS user_id FROM i JOIN users ON users.id = i.uid AND users.app_id = ${appId}
      UNION ALL
      SELECT i.k, users.id FROM i JOIN users ON users.app_id = ${appId} AND users.user_id = i.ext WHERE i.uid IS NULL
    ),
    lk AS MATERIALIZED (SELECT id FROM users WHERE id IN (SELECT user_id FROM u) ORDER BY id FOR SHARE),
    names AS (SELECT DISTINCT i.name FROM i JOIN u USING (k)),
    t0 AS (
      SELECT et.id, et.name, et.score, et.visible FROM event_types et
      WHERE et.app_id = ${appId} AND et.name IN (SELECT name FROM names)
    ),
    tn AS (
      INSERT INTO event_types (app_id, name)
      SELECT ${appId}, n.name FROM names n WHERE n.name NOT IN (SELECT name FROM t0) ORDER BY n.name
      ON CONFLICT (app_id, name) DO NOTHING RETURNING id, name, score, visible
    ),
    t AS (SELECT * FROM t0 UNION ALL SELECT * FROM tn),
    e AS MATERIALIZED (
      SELECT i.k, nextval(pg_get_serial_sequence('events', 'id')) AS id, u.user_id, t.id AS type_id, t.name,
        t.score, t.visible, i.created, i.props
      FROM i JOIN u USING (k) JOIN t ON t.name = i.name
      WHERE (SELECT count(*) FROM lk) >= 0
      ORDER BY i.k
    ),
    ev AS (
      INSERT INTO events (id, app_id, user_id, type_id, created, props)
      SELECT id, ${appId}, user_id, type_id, created, props FROM e
    ),
    s AS (
      INSERT INTO user_event_summaries AS s (user_id, event_type_id, "first", "last", "count")
      SELECT user_id, type_id, min(created), max(created), count(*) FROM e
      GROUP BY user_id, type_id ORDER BY user_id, type_id
      ON CONFLICT (user_id, event_type_id) DO UPDATE SET
        "first" = LEAST(s."first", EXCLUDED."first"),
        "last" = GREATEST(s."last", EXCLUDED."last"),
        "count" = s."count" + EXCLUDED."count"
      RETURNING user_id, event_type_id, "first", "last", "count"
    ),
    x AS (
      SELECT e.k * 2 AS ord, ${appId}::bigint AS app_id, e.user_id, ${appChannel("event", appId)} AS channel,
        'event' AS type, jsonb_build_object(
          'id', e.id, 'created', floor(extract(epoch FROM e.created))::bigint,
          'type', jsonb_build_object('id', e.type_id, 'name', e.name, 'score', e.score, 'visible', e.visible),
          'user', e.user_id, 'props', e.props) AS payload
      FROM e
      UNION ALL
      SELECT g.k * 2 + 1, ${appId}::bigint, s.user_id, ${appChannel("user_props_changed", appId)},
        'user_props_changed', jsonb_build_object(
          'user', s.user_id, 'app', ${appId}::bigint, 'props', jsonb_build_object(
          '$event_' || s.event_type_id || '_first', to_char(s."first" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'),
          '$event_' || s.event_type_id || '_last', to_char(s."last" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'),
          '$event_' || s.event_type_id || '_count', s."count"))
      FROM s JOIN (SELECT user_id, type_id, max(k) AS k FROM e GROUP BY user_id, type_id) g
        ON g.user_id = s.user_id AND g.type_id = s.event_type_id
    ),
    ${appendLogCtes(Prisma.sql`SELECT * FROM x`, {
      targets,
      keyBy: "type",
      after: Prisma.sql`(SELECT count(*) FROM s) s_done`,
    })},
    logged AS (SELECT array_agg(id ORDER BY id) AS ids, array_agg(type ORDER BY id) AS types FROM log)
    SELECT e.k, e.id, e.created, e.props, e.user_id, e.type_id, e.name, e.score, e.visible,
      CASE WHEN e.k = (SELECT min(k) FROM e) THEN logged.ids END AS log_ids,
      CASE WHEN e.k = (SELECT min(k) FROM e) THEN logged.types END AS log_types
    FROM e, logged ORDER BY e.k`);

  const logIds = rows[0]?.log_ids ?? [];
  const logTypes = rows[0]?.log_types ?? [];
  const queued = new Set(targets.map((t) => t.key));
  appendedCommitted(
    logIds,
    logIds.filter((_, i) => queued.has(logTypes[i] ?? "")),
  );
  return new Map(rows.map((r) => [r.k, eventFromSql(r)]));
}
