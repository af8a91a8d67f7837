import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import type { PGlite } from "@electric-sql/pglite";
import { createPglite } from "./pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient, type Prisma } from "./generated/client";
import { pgliteSql, pgSql, registerSql } from "./sql";
import { statementName } from "./statements";

export type Db = PrismaClient;
/** What a `$transaction(async (tx) => …)` callback receives. */
export type Tx = Prisma.TransactionClient;

export type DbKind = "postgres" | "pglite";

export interface DbHandle {
  db: PrismaClient;
  kind: DbKind;
  /** The embedded database, when there is one (tests load snapshots into it). */
  pglite?: PGlite;
  /** The PostgreSQL pool's connections (metrics), when there is a pool. */
  poolUse?: () => { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export function dbKind(url: string): DbKind {
  if (/^postgres(ql)?:\/\//.test(url)) return "postgres";
  if (url.startsWith("pglite:")) return "pglite";
  throw new Error(`DATABASE_URL must start with postgresql:// or pglite: (got ${url.split(":")[0]}:…)`);
}

/** `pglite:memory://` is in-memory; `pglite://<dir>` (or `pglite:<dir>`) persists in a directory. */
export function pglitePath(url: string): string | undefined {
  const rest = url.replace(/^pglite:(\/\/)?/, "");
  return rest === "memory" || rest.startsWith("memory") ? undefined : rest;
}

export interface OpenOptions {
  /** An existing PGlite instance (for example one loaded from a snapshot). */
  pglite?: PGlite;
  poolSize?: number;
}

/**
 * The session settings of every connection the product (and the benchmark's replay and plans) opens. JIT off: our
 * statements are short, and on the large ones (a year of reports, leads filters at 1M) PostgreSQL's cost estimate
 * switches JIT on and compiles for 0.3–0.5 s to save a few ms (EXPLAIN's JIT section, docs/decisions.md).
 * random_page_cost 1.1: the product's pages are read from memory or SSD, where a random read costs about a
 * sequential one; at the default of 4 (spinning disks) the planner chose, by a few percent of estimated cost, to read
 * every lead rather than the few thousand pages an index named (`$email` contains at 1M: 182 against 22 ms;
 * docs/decisions.md).
 */
export const pgSession = (url: string): pg.ClientConfig => ({
  connectionString: url,
  options: "-c jit=off -c random_page_cost=1.1",
});

export async function openDb(url: string, opts: OpenOptions = {}): Promise<DbHandle> {
  if (dbKind(url) === "postgres")
    return pgHandle(new pg.Pool({ ...pgSession(url), max: opts.poolSize ?? 10 }));
  const lite = opts.pglite ?? (await createPglite(pglitePath(url)));
  const db = new PrismaClient({ adapter: new PrismaPGlite(lite) });
  registerSql(db, pgliteSql(lite));
  return {
    db,
    kind: "pglite",
    pglite: lite,
    close: async () => {
      await db.$disconnect();
      if (!lite.closed) await lite.close();
    },
  };
}

/** Prisma and the raw statements of lib/db/sql.ts on one pool (the benchmark passes a recording one). */
export function pgHandle(pool: pg.Pool): DbHandle {
  // An idle connection the server dropped: the pool replaces it; unheard, the event would end the process. A
  // restart drops every idle connection at once: one line for them all.
  let lostAt = 0;
  pool.on("error", (err) => {
    if (Date.now() - lostAt > 10_000) console.error("database connection lost:", err.message);
    lostAt = Date.now();
  });
  // The pool listens to idle connections only. One checked out (a transaction) that the server drops emits its
  // `error` unheard (an uncaughtException) besides failing its query: that failure is the one that is handled.
  pool.on("connect", (client) => client.on("error", () => undefined));
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { statementNameGenerator: statementName }) });
  registerSql(db, pgSql(pool));
  return {
    db,
    kind: "postgres",
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: async () => {
      await db.$disconnect();
      await pool.end();
    },
  };
}

/** A failed query's error on one line for a log: Prisma's messages span several, the cause last. */
export function errorLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (
    text
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean)
      .at(-1) ?? text
  ).slice(0, 300);
}
