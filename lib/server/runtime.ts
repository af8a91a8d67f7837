import type { BlockList } from "node:net";
import type { Server as IoServer } from "socket.io";
import type { Config } from "../config/env";
import type { Db, DbKind } from "../db/client";
import type { Replica } from "../db/replica";
import type { Foreground } from "./foreground";
import type { Limits } from "./rate-limit";

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
  /** Where this server listens (`http://host:port`), once it does: links in emails when PUBLIC_URL is unset. */
  baseUrl?: string;
  /** The requests this server is answering: background jobs yield to them. */
  foreground?: Foreground;
  /** The balancers whose X-Forwarded-For names the client (TRUSTED_PROXIES). */
  trustedProxies?: BlockList;
  /**
   * Set on SIGTERM: readiness fails (`/api/health/ready`), answers close their connections, sockets are asked to
   * reconnect elsewhere (lib/compose/drain.ts).
   */
  draining?: boolean;
  /** DATABASE_REPLICA_URL: where heavy reads may go (lib/db/replica.ts). */
  replica?: Replica;
  /** The database pool's connections, for /metrics (PostgreSQL only). */
  poolUse?: () => { total: number; idle: number; waiting: number };
  /** Where the server's own lines go (startServer's `log`; tests silence it). */
  log?: (line: string) => void;
}

const KEY = Symbol.for("relay.runtime");

/** The one globalThis slot of the runtime (Next's route bundles and server.ts each have their own module state). */
interface Slot {
  runtime?: Runtime;
}

function slot(): Slot {
  const g = globalThis as { [KEY]?: Slot };
  return (g[KEY] ??= {});
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
