import type { Redis } from "ioredis";
import { errorLine, openDb, type Db, type DbHandle } from "./client";
import { sqlOf } from "./sql";

/**
 * DATABASE_REPLICA_URL: a PostgreSQL streaming replica that serves the heavy reads (leads lists and counts,
 * exports, reports, search; endpoints marked `reads: "replica"`). Writes, and every read of a caller who wrote in
 * the last MAX_LAG_MS + CHECK_EVERY_MS, stay on the primary, so an operator who just changed a lead sees the change. The
 * replica is left alone while it lags more than MAX_LAG_MS, while it does not answer, or after a failed read
 * (which is run again on the primary), until the next check finds it well.
 */
const CHECK_EVERY_MS = 1000;
const MAX_LAG_MS = 5000;
/** The primary's WAL positions of the last half minute, to tell how far behind the replica's replay is. */
const HISTORY = 30;

export interface Replica {
  /** The replica, when it may serve this caller (`who`: lib/api/read-replica.ts actorKey); else undefined. */
  readerFor(who: string): Promise<Db | undefined>;
  /** A caller's write: their reads stay on the primary for a while, on every instance (through Redis). */
  wrote(who: string): Promise<void>;
  /** A read on the replica failed: reads go to the primary until a check finds it well. */
  failed(err: unknown): void;
  /** Seconds behind the primary at the last check; undefined while it is not answering. */
  lagSeconds(): number | undefined;
  close(): Promise<void>;
}

export async function openReplica(
  url: string,
  primary: Db,
  opts: { redis?: Redis; log?: (line: string) => void; maxLagMs?: number } = {},
): Promise<Replica> {
  const maxLagMs = opts.maxLagMs ?? MAX_LAG_MS;
  // Longer than the lag the replica may have while it serves, plus a check's period: a write is visible there.
  const recentWriteMs = maxLagMs + CHECK_EVERY_MS;
  const handle: DbHandle = await openDb(url, { poolSize: 10 });
  const log = opts.log ?? (() => undefined);
  const writes = new Map<string, number>();
  const history: { at: number; lsn: bigint }[] = [];
  let lagMs: number | undefined;
  let down = false;

  const check = async () => {
    try {
      const [p] = await sqlOf(primary).$queryRaw<{ lsn: string }[]>`
        SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::text AS lsn`;
      history.push({ at: Date.now(), lsn: BigInt(p?.lsn ?? 0) });
      if (history.length > HISTORY) history.shift();
      const [r] = await sqlOf(handle.db).$queryRaw<{ lsn: string | null }[]>`
        SELECT (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::text AS lsn`;
      const replayed = BigInt(r?.lsn ?? -1);
      // Behind by the age of the newest primary position the replica has replayed past (a bound, not a guess).
      const reached = history.findLast((h) => h.lsn <= replayed);
      lagMs = reached ? Date.now() - reached.at : Number.POSITIVE_INFINITY;
      if (down) log("replica: answering again");
      down = false;
    } catch (err) {
      if (!down) log(`replica: not used (${errorLine(err)})`);
      down = true;
      lagMs = undefined;
    }
  };
  await check();
  const timer = setInterval(() => void check(), CHECK_EVERY_MS);
  timer.unref();

  const recentlyWrote = async (who: string) => {
    const at = writes.get(who);
    if (at !== undefined && Date.now() - at < recentWriteMs) return true;
    if (!opts.redis || opts.redis.status !== "ready") return false;
    return (await opts.redis.exists(`wrote:${who}`).catch(() => 0)) === 1;
  };

  return {
    readerFor: async (who) => {
      if (down || lagMs === undefined || lagMs > maxLagMs) return undefined;
      return (await recentlyWrote(who)) ? undefined : handle.db;
    },
    wrote: async (who) => {
      writes.set(who, Date.now());
      if (writes.size > 10_000) {
        for (const [k, at] of writes) if (Date.now() - at >= recentWriteMs) writes.delete(k);
      }
      // Awaited before the answer goes: the caller's next read may reach another instance at once.
      if (opts.redis?.status === "ready")
        await opts.redis.set(`wrote:${who}`, "1", "PX", recentWriteMs).catch(() => undefined);
    },
    failed: (err) => {
      if (!down) log(`replica: a read failed, reads go to the primary (${errorLine(err)})`);
      down = true;
      lagMs = undefined;
    },
    lagSeconds: () => (lagMs === undefined ? undefined : lagMs / 1000),
    close: async () => {
      clearInterval(timer);
      await handle.close();
    },
  };
}
