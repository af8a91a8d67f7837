import pg from "pg";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import { Prisma } from "./generated/client";
import { statementName } from "./statements";
import { processWide } from "../config/process-wide";

/**
 * Raw SQL straight on the driver (the pg pool or the embedded PGlite that Prisma itself uses), for the hottest
 * paths: a `$queryRaw` through Prisma costs about 0.6 ms of CPU over the driver's own 0.15 ms, and an interactive
 * transaction twice that again (docs/decisions.md). Statements are the same tagged templates (`Prisma.sql`), and
 * rows come back typed as Prisma's `$queryRaw` types them (int8 as bigint, numeric as Decimal), so one helper can
 * take either a Prisma client or transaction, or one of these.
 */
export interface Queryable {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T>;
  $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number>;
}

export interface SqlDb extends Queryable {
  /** BEGIN, `fn`, COMMIT on one connection; ROLLBACK (and the error) when `fn` or the commit fails. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}

function toSql(query: TemplateStringsArray | Prisma.Sql, values: unknown[]): Prisma.Sql {
  // Not `instanceof Prisma.Sql`: a route bundle's statements are made by its own copy of the Prisma class.
  return Array.isArray(query) ? Prisma.sql(query as TemplateStringsArray, ...values) : (query as Prisma.Sql);
}

/** Parameters as text the server casts, whatever the driver: 64-bit IDs, decimals, instants, JSON objects. */
function toParam(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === "bigint") return v.toString();
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(toParam);
  if (v instanceof Uint8Array) return v;
  if (Prisma.Decimal.isDecimal(v)) return v.toString();
  if (typeof v === "object") return JSON.stringify(v);
  return v;
}

function parseInt8Array(text: string): (bigint | null)[] {
  if (text === "{}") return [];
  return text
    .slice(1, -1)
    .split(",")
    .map((s) => (s === "NULL" ? null : BigInt(s)));
}

/** Result types where the drivers' defaults differ from Prisma's `$queryRaw`. */
const PARSERS: Record<number, (text: string) => unknown> = {
  20: (v) => BigInt(v),
  1016: parseInt8Array,
  1700: (v) => new Prisma.Decimal(v),
  // timestamp without time zone and date: UTC, as Prisma reads them (pg's default is the process's local time).
  1114: (v) => new Date(`${v.replace(" ", "T")}Z`),
  1082: (v) => new Date(`${v}T00:00:00Z`),
};

/** Statements planned at every execution: see planEachTime. Marked in a route bundle, read by server.ts's driver. */
const unnamed = processWide("sql.unnamed", () => new WeakSet<Prisma.Sql>());

/**
 * Marks a statement to be planned with its parameters each time rather than prepared once: where the best plan
 * depends on the values (a leads filter's selectivity), a prepared statement's generic plan, which PostgreSQL
 * switches to after five executions, can be several times slower (no parallel scan, wrong join order).
 */
export function planEachTime(q: Prisma.Sql): Prisma.Sql {
  unnamed.add(q);
  return q;
}

export function pgSql(pool: pg.Pool): SqlDb {
  const types = {
    getTypeParser: (oid: number, format?: string): ((text: string) => unknown) =>
      PARSERS[oid] ??
      (pg.types.getTypeParser(oid, (format ?? "text") as "text") as (text: string) => unknown),
  };
  const on = (client: pg.Pool | pg.PoolClient): Queryable => ({
    async $queryRaw<T>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) {
      const q = toSql(query, values);
      const r = await client.query({
        name: unnamed.has(q) ? undefined : statementName({ sql: q.text }) || undefined,
        text: q.text,
        values: q.values.map(toParam),
        types,
      });
      return r.rows as T;
    },
    async $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) {
      const q = toSql(query, values);
      const r = await client.query({ text: q.text, values: q.values.map(toParam), types });
      return r.rowCount ?? 0;
    },
  });
  return {
    ...on(pool),
    async transaction(fn) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query("BEGIN");
        const result = await fn(on(client));
        await client.query("COMMIT");
        return result;
      } catch (err) {
        await client.query("ROLLBACK").catch((e: Error) => (broken = e));
        throw err;
      } finally {
        // A connection that could not even roll back is not handed to the next transaction.
        client.release(broken);
      }
    },
  };
}

export function pgliteSql(db: PGlite): SqlDb {
  const on = (q: PGlite | Transaction): Queryable => ({
    async $queryRaw<T>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) {
      const s = toSql(query, values);
      return (await q.query(s.text, s.values.map(toParam), { parsers: PARSERS })).rows as T;
    },
    async $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) {
      const s = toSql(query, values);
      return (await q.query(s.text, s.values.map(toParam), { parsers: PARSERS })).affectedRows ?? 0;
    },
  });
  return { ...on(db), transaction: (fn) => db.transaction((tx) => fn(on(tx))) };
}

/** What sqlOf needs of a Prisma client. */
export interface PrismaLike extends Queryable {
  $transaction<T>(
    fn: (tx: Queryable) => Promise<T>,
    options?: { maxWait?: number; timeout?: number },
  ): Promise<T>;
}

/** For a client made elsewhere (not by openDb): the same interface through Prisma. */
function throughPrisma(db: PrismaLike): SqlDb {
  return {
    $queryRaw: (query, ...values) => db.$queryRaw(toSql(query, values)),
    $executeRaw: (query, ...values) => db.$executeRaw(toSql(query, values)),
    transaction: (fn) => db.$transaction((tx) => fn(tx), { maxWait: 30_000, timeout: 30_000 }),
  };
}

/**
 * Process-wide: openDb registers the driver from server.ts's copy of this module, and the route handlers' copies
 * (Next bundles them apart) must find it, not fall back to Prisma.
 */
const registry = processWide("sql.registry", () => new WeakMap<object, SqlDb>());

/** Ties a Prisma client to the driver it runs on (openDb does it). */
export function registerSql(db: object, sql: SqlDb): void {
  registry.set(db, sql);
}

/** The driver under a Prisma client, as a SqlDb. */
export function sqlOf(db: PrismaLike): SqlDb {
  let s = registry.get(db);
  if (!s) registry.set(db, (s = throughPrisma(db)));
  return s;
}
