import type { Server as IoServer } from "socket.io";
import type { Config } from "../config/env";
import type { Db, DbKind } from "../db/client";
import type { Limits } from "../api/rate-limit";

/**
 * What the custom server owns and route handlers use. Next bundles route handlers apart from server.ts, so the
 * two halves meet through this one globalThis slot rather than through module state.
 */
export interface Runtime extends Limits {
  db: Db;
  dbKind: DbKind;
  config: Config;
  io?: IoServer;
  realtime: { redis: "off" | "connected" | "down" };
  /**
   * The real-time hub's position: every event up to it has been committed (and delivered). Read before a request's
   * own reads, it tells a client where to resume its subscription so that nothing between is missed.
   */
  eventPosition?: () => bigint;
  /** Hooks other modules add (the event publisher, the webhook dispatcher) run after each commit. */
  afterCommit: ((eventIds: bigint[]) => void)[];
  startedAt: number;
}

const KEY = Symbol.for("relay.runtime");

/**
 * The one globalThis slot: the runtime, and the process-wide registries of modules that Next bundles into every
 * route bundle as well as server.ts (each copy with its own module state).
 */
interface Slot {
  runtime?: Runtime;
  shared: Map<string, unknown>;
}

function slot(): Slot {
  const g = globalThis as { [KEY]?: Slot };
  return (g[KEY] ??= { shared: new Map() });
}

export function setRuntime(rt: Runtime | undefined): void {
  slot().runtime = rt;
}

export function getRuntime(): Runtime {
  const rt = slot().runtime;
  if (!rt)
    throw new Error("runtime not started: route handlers run inside server.ts (or startServer in tests)");
  return rt;
}

export function tryRuntime(): Runtime | undefined {
  return slot().runtime;
}

/**
 * The process's one `name` registry, made by the first copy of a module that asks: a registry kept in module state
 * instead would be one per bundle, and what server.ts registers would be missing in the route handlers.
 */
export function processWide<T>(name: string, make: () => T): T {
  const shared = slot().shared;
  if (!shared.has(name)) shared.set(name, make());
  return shared.get(name) as T;
}
