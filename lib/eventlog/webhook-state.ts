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

interface Slot {
  subs: Map<bigint, { at: number; subs: ActiveSubscription[] }>;
  /** Bumped by every subscription write: a lookup that began before it must not fill the cache. */
  generation: number;
  /** Events that queued deliveries: the dispatcher's after-commit hook wakes it only for commits among them. */
  queued: Set<bigint>;
}

const CACHE_MS = 5_000;

const slot = () =>
  processWide("webhooks", (): Slot => ({ subs: new Map(), generation: 0, queued: new Set() }));

/**
 * The app's active subscriptions, cached for a few seconds: most writes happen in apps without webhooks and must
 * cost no query. Writes in this process invalidate at once; another instance's writes show within CACHE_MS.
 */
export async function activeSubscriptions(tx: Queryable, appId: bigint): Promise<ActiveSubscription[]> {
  const s = slot();
  const hit = s.subs.get(appId);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.subs;
  const generation = s.generation;
  const subs = await tx.$queryRaw<ActiveSubscription[]>`
    SELECT id, events FROM webhook_subscriptions WHERE app_id = ${appId} AND active ORDER BY id`;
  if (s.generation === generation) s.subs.set(appId, { at: Date.now(), subs });
  return subs;
}

export function invalidateSubscriptions(appId: bigint): void {
  const s = slot();
  s.generation++;
  s.subs.delete(appId);
}

export function markQueued(eventIds: bigint[]): void {
  const q = slot().queued;
  // Rolled-back transactions leave their IDs behind; the bound keeps that from growing.
  if (q.size > 10_000) q.clear();
  for (const id of eventIds) q.add(id);
}

/** Whether any of these committed events queued deliveries (and forgets them). */
export function takeQueued(eventIds: bigint[]): boolean {
  const q = slot().queued;
  let hit = false;
  for (const id of eventIds) hit = q.delete(id) || hit;
  return hit;
}
