import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { sqlOf } from "../db/sql";
import { toJson } from "../domain/json";

/** The X-Webhook-Id and the body's `id`: one per delivery, the same on every attempt. */
export const webhookMessageId = (deliveryId: bigint) => `wh_${deliveryId}`;

export interface Claimed {
  id: bigint;
  subscriptionId: bigint;
  appId: bigint;
  type: string;
  payload: unknown;
  attempts: number;
  created: Date;
  url: string;
  secret: string;
}

const ms = (n: number) => Prisma.sql`(${n}::float8 * INTERVAL '1 millisecond')`;

/**
 * Claims up to `limit` due deliveries and leases them: next_attempt_at moves `leaseMs` ahead before anything is
 * sent, so a process that dies mid-send leaves them to be retried when the lease ends. SKIP LOCKED lets several
 * instances claim side by side without taking the same rows. Deliveries of paused subscriptions wait (tests
 * excepted: they are sent even to a paused subscription).
 */
export async function claimDue(db: Db, limit: number, leaseMs: number): Promise<Claimed[]> {
  // On the driver: it runs after every commit that queued deliveries, beside the writes themselves.
  const rows = await sqlOf(db).$queryRaw<
    {
      id: bigint;
      subscription_id: bigint;
      app_id: bigint;
      type: string;
      payload: unknown;
      attempts: number;
      created: Date;
      url: string;
      secret: string;
    }[]
  >(Prisma.sql`
    WITH due AS (
      SELECT d.id FROM webhook_deliveries d
      JOIN webhook_subscriptions s ON s.id = d.subscription_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND (s.active OR d.type = 'test')
      ORDER BY d.next_attempt_at, d.id
      LIMIT ${limit}
      FOR UPDATE OF d SKIP LOCKED
    ), claimed AS (
      UPDATE webhook_deliveries d SET next_attempt_at = now() + ${ms(leaseMs)}, updated = now()
      FROM due WHERE d.id = due.id
      RETURNING d.id, d.subscription_id, d.type, d.payload, d.attempts, d.created
    )
    SELECT c.id, c.subscription_id, s.app_id, c.type, c.payload, c.attempts, c.created, s.url, s.secret
    FROM claimed c JOIN webhook_subscriptions s ON s.id = c.subscription_id
    ORDER BY c.id`);
  return rows.map((r) => ({
    id: r.id,
    subscriptionId: r.subscription_id,
    appId: r.app_id,
    type: r.type,
    payload: typeof r.payload === "string" ? (JSON.parse(r.payload) as unknown) : r.payload,
    attempts: Number(r.attempts),
    created: r.created,
    url: r.url,
    secret: r.secret,
  }));
}

/** The body of every attempt of one delivery: built from the row alone, so it is byte-identical on retries. */
export function webhookBody(d: Pick<Claimed, "id" | "type" | "appId" | "created" | "payload">): string {
  return toJson(
    {
      id: webhookMessageId(d.id),
      type: d.type,
      app: d.appId,
      created: Math.floor(d.created.getTime() / 1000),
      data: d.payload,
    },
    false,
  );
}

export interface Backoff {
  retryBaseMs: number;
  retryMaxMs: number;
  retryWindowMs: number;
}

/** base·2^(attempt-1), capped, ±10% so that a receiver coming back is not hit by every retry at once. */
export function retryDelay(attempt: number, b: Pick<Backoff, "retryBaseMs" | "retryMaxMs">): number {
  const raw = Math.min(b.retryBaseMs * 2 ** Math.min(attempt - 1, 40), b.retryMaxMs);
  return Math.round(raw * (0.9 + Math.random() * 0.2));
}

export interface Outcome {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** Successful attempts of a round, in one statement (most attempts succeed), guarded as recordAttempt's. */
export async function recordSuccesses(db: Db, done: { d: Claimed; status: number | null }[]): Promise<void> {
  if (!done.length) return;
  const rows = done.map(({ d, status }) => ({ id: String(d.id), attempts: d.attempts, status }));
  await sqlOf(db).$executeRaw`
    UPDATE webhook_deliveries d SET status = 'succeeded', attempts = d.attempts + 1,
      last_response_code = r.status, last_error = NULL, next_attempt_at = NULL, updated = now()
    FROM jsonb_to_recordset(${toJson(rows, false)}::jsonb) AS r(id bigint, attempts int, status int)
    WHERE d.id = r.id AND d.attempts = r.attempts AND d.status = 'pending'`;
}

/**
 * Records one attempt. `attempts = claimed` guards the row: should a lease ever run out during a send and another
 * instance claim it, only one of the two records the attempt. A failure past the retry window is final; the last
 * retry is pulled in to the window's end.
 */
export async function recordAttempt(db: Db, d: Claimed, o: Outcome, b: Backoff): Promise<void> {
  const error = o.error?.slice(0, 1000) ?? null;
  if (o.ok) {
    await db.$executeRaw`
      UPDATE webhook_deliveries SET status = 'succeeded', attempts = attempts + 1, last_response_code = ${o.status},
        last_error = NULL, next_attempt_at = NULL, updated = now()
      WHERE id = ${d.id} AND attempts = ${d.attempts} AND status = 'pending'`;
    return;
  }
  const window = ms(b.retryWindowMs);
  await db.$executeRaw`
    UPDATE webhook_deliveries SET attempts = attempts + 1, last_response_code = ${o.status},
      last_error = ${error}, updated = now(),
      status = CASE WHEN now() >= created + ${window} THEN 'failed' ELSE 'pending' END,
      next_attempt_at = CASE WHEN now() >= created + ${window} THEN NULL
        ELSE LEAST(now() + ${ms(retryDelay(d.attempts + 1, b))}, created + ${window}) END
    WHERE id = ${d.id} AND attempts = ${d.attempts} AND status = 'pending'`;
}
