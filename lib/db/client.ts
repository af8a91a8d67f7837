import { PrismaPg } from "@prisma/adapter-pg";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient, type Prisma } from "./generated/client";

export type Db = PrismaClient;
/** What a `$transaction(async (tx) => …)` callback receives. */
export type Tx = Prisma.TransactionClient;

export type DbKind = "postgres" | "pglite";

export interface DbHandle {
  db: PrismaClient;
  kind: DbKind;
  /** The embedded database, when there is one (tests load snapshots into it). */
  pglite?: PGlite;
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

/** Statement texts given a name so far; past the bound, new texts get "", pg's unnamed statement, planned each call. */
const named = new Map<string, string>();
const MAX_NAMED = 1000;

/**
 * Named statements are prepared once per connection and their plans reused: planning the write paths' statements
 * cost more than running them (the one-statement event ingest: 1.7 ms unnamed, 0.7 ms named). The bound keeps the
 * per-connection statement caches finite when texts vary (leads filters build their own).
 */
export function statementName(query: { sql: string }): string {
  let name = named.get(query.sql);
  if (name === undefined && named.size < MAX_NAMED) {
    name = `s${named.size}`;
    named.set(query.sql, name);
  }
  return name ?? "";
}

export async function openDb(url: string, opts: OpenOptions = {}): Promise<DbHandle> {
  if (dbKind(url) === "postgres") {
    const adapter = new PrismaPg(
      { connectionString: url, max: opts.poolSize ?? 10 },
      { statementNameGenerator: statementName },
    );
    const db = new PrismaClient({ adapter });
    return { db, kind: "postgres", close: () => db.$disconnect() };
  }
  const pg = opts.pglite ?? (await PGlite.create(pglitePath(url)));
  const db = new PrismaClient({ adapter: new PrismaPGlite(pg) });
  return {
    db,
    kind: "pglite",
    pglite: pg,
    close: async () => {
      await db.$disconnect();
      if (!pg.closed) await pg.close();
    },
  };
}
