import { Prisma } from "../db/generated/client";
import type { Queryable } from "../db/sql";
import { webhookKind } from "./webhook-kinds";
import { activeSubscriptions } from "./webhook-state";

/** An event about to be logged, as webhooks match it; `key` names it in the logging statement. */
export interface Loggable {
  key: string;
  appId: bigint | null;
  type: string;
  channel?: string;
  payload: unknown;
}

/** One delivery to queue: the logged row named `key`, for subscription `sub`, as webhook kind `kind`. */
export interface Target {
  key: string;
  sub: string;
  kind: string;
}

/**
 * The deliveries the events ask for: each event's kind, matched against its app's active subscriptions (cached:
 * most apps have none and pay no query). Every statement that logs rows matches here, before it runs, and the log's
 * writer (appendLogCtes, lib/eventlog/append.ts) inserts the deliveries in it, so that a committed event never misses
 * its webhooks.
 */
export async function webhookTargets(tx: Queryable, events: Loggable[]): Promise<Target[]> {
  const targets: Target[] = [];
  const subsOf = new Map<bigint, Awaited<ReturnType<typeof activeSubscriptions>>>();
  for (const e of events) {
    const kind = webhookKind(e.type, e.channel, e.payload);
    if (!kind) continue;
    if (kind === "test") {
      // A test is for the one subscription that asked, active or not, whatever its kinds. Matched before the
      // payload is written: its ID may still be a bigint.
      const target = (e.payload as { webhook?: unknown } | null)?.webhook;
      if (typeof target === "bigint" || typeof target === "number" || typeof target === "string")
        targets.push({ key: e.key, sub: String(target), kind });
      continue;
    }
    // The instances' own rows belong to no app, and no webhook kind is theirs.
    if (e.appId === null) continue;
    let subs = subsOf.get(e.appId);
    if (!subs) subsOf.set(e.appId, (subs = await activeSubscriptions(tx, e.appId)));
    for (const s of subs) if (s.events.includes(kind)) targets.push({ key: e.key, sub: String(s.id), kind });
  }
  return targets;
}

/**
 * The statement part (a CTE's body) that queues `targets` for the rows of the CTE `rows` (columns id, key,
 * payload). A delivery's payload is its log row's, taken in the statement: built and sent once.
 */
export function insertDeliveries(rows: string, targets: Target[]): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO webhook_deliveries (subscription_id, event_id, type, payload)
    SELECT d.sub, r.id, d.kind, r.payload
    FROM ${Prisma.raw(rows)} r JOIN jsonb_to_recordset(${JSON.stringify(targets)}::jsonb)
      AS d(key text, sub bigint, kind text) ON d.key = r.key
    ON CONFLICT DO NOTHING`;
}
