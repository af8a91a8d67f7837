import type { Queryable } from "../db/sql";
import { processWide } from "../config/process-wide";

/**
 * Process-wide webhook state. Next bundles route handlers apart from server.ts, so each bundle has its own copy of
 * this module: the state is process-wide (lib/config/process-wide.ts), where the writers (route handlers) and the
 * dispatcher (server.ts) both see it.
 */
export interface ActiveSubscription {
  id: bigint;
  events: string[];
}

const CACHE_MS = 5_000;

const cached = () =>
  processWide("webhooks.subscriptions", () => new Map<bigint, { at: number; subs: ActiveSubscription[] }>());
/** Bumped by every subscription write: a lookup that began before it must not fill the cache. */
const writes = () => processWide("webhooks.generation", () => ({ generation: 0 }));
/** Events that queued deliveries: the dispatcher's after-commit hook wakes it only for commits among them. */
const queued = () => processWide("webhooks.queued", () => new Set<bigint>());

/**
 * The app's active subscriptions, cached for a few seconds: most writes happen in apps without webhooks and must
 * cost no query. Writes in this process invalidate at once; another instance's writes show within CACHE_MS.
 */
export async function activeSubscriptions(tx: Queryable, appId: bigint): Promise<ActiveSubscription[]> {
  const subsOf = cached();
  const hit = subsOf.get(appId);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.subs;
  const { generation } = writes();
  const subs = await tx.$queryRaw<ActiveSubscription[]>`
    SELECT id, events FROM webhook_subscriptions WHERE app_id = ${appId} AND active ORDER BY id`;
  if (writes().generation === generation) subsOf.set(appId, { at: Date.now(), subs });
  return subs;
}

export function invalidateSubscriptions(appId: bigint): void {
  writes().generation++;
  cached().delete(appId);
}

export function markQueued(eventIds: bigint[]): void {
  const q = queued();
  // Rolled-back transactions leave their IDs behind; the bound keeps that from growing.
  if (q.size > 10_000) q.clear();
  for (const id of eventIds) q.add(id);
}

/** Whether any of these committed events queued deliveries (and forgets them). */
export function takeQueued(eventIds: bigint[]): boolean {
  const q = queued();
  let hit = false;
  for (const id of eventIds) hit = q.delete(id) || hit;
  return hit;
}
