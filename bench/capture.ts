import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import http from "node:http";
import pg from "pg";
import { pgHandle, pgSession, type DbHandle } from "../lib/db/client";

/**
 * The baseline beside each API figure: the SQL the product ran for a request, recorded from its own connection
 * pool, replayed by a bare node:http server with pg's parameterised queries. A request is traced when it carries
 * TRACE_HEADER (its label); every statement run in its async context is kept, background work it started
 * included (an import's batches). Statements of the event-log tail are left out: the hub runs them because a
 * commit woke it (fan-out to sockets), not as part of the request.
 */
/** Its value is the label, URI-encoded. */
export const TRACE_HEADER = "x-bench-trace";
// The tail's position (finalPosition) and its read: a wake that a traced request's commit started runs on in that
// request's async context, and while commits keep coming it chains (lib/realtime/hub.ts), so one trace collected
// the tail's statements for the whole warm-up (55 of them in the props trace printed by BENCH_TRACES).
const NOT_THE_REQUEST = [/FROM event_log\s+WHERE id >/, /FROM event_log_id_seq/];

export interface Stmt {
  text: string;
  values: unknown[];
  /** The `id` column of what it returned: new IDs are mapped to the replay's own in later statements. */
  ids?: string[];
  /**
   * The prepared statement's name the product gave it, none for a statement planned at every execution
   * (planEachTime): the replay prepares what the product prepared, so that both run the same plans.
   */
  name?: string;
}
export type Trace = Stmt[];

const als = new AsyncLocalStorage<Trace>();

export class Recorder {
  readonly traces = new Map<string, Trace[]>();
  constructor(private readonly maxPerLabel = 2000) {}

  start(label: string): Trace | undefined {
    const list = this.traces.get(label) ?? [];
    this.traces.set(label, list);
    if (list.length >= this.maxPerLabel) return undefined;
    const t: Trace = [];
    list.push(t);
    return t;
  }

  get(label: string): Trace[] {
    return this.traces.get(label) ?? [];
  }
}

type QueryConfig = { text: string; values?: unknown[]; name?: string };

function record(
  trace: Trace | undefined,
  config: QueryConfig | string,
  values?: unknown[],
): Stmt | undefined {
  if (!trace) return undefined;
  const text = typeof config === "string" ? config : config.text;
  if (NOT_THE_REQUEST.some((re) => re.test(text))) return undefined;
  const s: Stmt = { text, values: [...((typeof config === "string" ? values : config.values) ?? [])] };
  if (typeof config !== "string" && config.name) s.name = config.name;
  trace.push(s);
  return s;
}

/**
 * Statements that make IDs (inserts, sequence draws) or read a row's version (`xmin`, which an optimistic write
 * checks: lib/props/set-props.ts); the IDs other statements return are the same on replay. A replayed write that
 * kept the recorded version would match no row, the replay's row having changed since: doing nothing, it would
 * be no baseline.
 */
const MAKES_IDS = /\bINSERT\b|\bnextval\(|\bxmin\b/i;

/** Columns whose values are new IDs: `id`, the part IDs a conversation's row lock reserves, a row's `version`. */
const ID_COLUMNS = ["id", "part_ids", "version"];

/** The new IDs of a result, flattened in row and column order (so a replay's result pairs with them). */
function idsOf(fields: { name: string }[], rows: unknown[]): string[] {
  const cols = fields.flatMap((f, i) => (ID_COLUMNS.includes(f.name) ? [[i, f.name] as const] : []));
  return rows.flatMap((row) =>
    cols.flatMap(([i, name]) => {
      const v: unknown = Array.isArray(row) ? (row[i] as unknown) : (row as Record<string, unknown>)[name];
      return (Array.isArray(v) ? (v as unknown[]) : [v]).map(String);
    }),
  );
}

function keepIds(s: Stmt | undefined, result: unknown) {
  if (!s || !MAKES_IDS.test(s.text)) return;
  const r = result as { fields?: { name: string }[]; rows?: unknown[] } | undefined;
  if (!r?.fields || !r.rows || r.rows.length > 5000) return;
  const ids = idsOf(r.fields, r.rows);
  if (ids.length) s.ids = ids;
}

/** A pg pool that records traced requests' statements: its own queries and those of clients it hands out. */
function tracingPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ ...pgSession(url), max });
  const query = pool.query.bind(pool) as (c: QueryConfig | string, v?: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: typeof query }).query = async (config, values) => {
    const s = record(als.getStore(), config, values);
    const r = await query(config, values);
    keepIds(s, r);
    return r;
  };
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  (pool as unknown as { connect: (cb?: unknown) => unknown }).connect = (cb?: unknown) => {
    // With a callback it is pool.query's own checkout, already recorded above.
    if (cb) return (connect as unknown as (cb: unknown) => void)(cb);
    return connect().then(
      (client) =>
        new Proxy(client, {
          get(target, prop) {
            if (prop === "query") {
              return async (config: QueryConfig | string, values?: unknown[]) => {
                const s = record(als.getStore(), config, values);
                const r = await (target.query as (c: unknown, v?: unknown[]) => Promise<unknown>)(
                  config,
                  values,
                );
                keepIds(s, r);
                return r;
              };
            }
            const v = Reflect.get(target, prop, target) as unknown;
            return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
          },
        }),
    );
  };
  return pool;
}

/** The product's database handle (as openDb makes it), on a recording pool. */
export function tracedDb(url: string, poolSize = 10): DbHandle {
  return pgHandle(tracingPool(url, poolSize));
}

type Listener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/**
 * Runs `start` (which makes the product's HTTP server) with http.createServer wrapped so that each request
 * carrying TRACE_HEADER runs in the async context of a new trace.
 */
export async function withTracing<T>(rec: Recorder, start: () => Promise<T>): Promise<T> {
  const original = http.createServer;
  const wrap =
    (listener: Listener): Listener =>
    (req, res) => {
      const label = req.headers[TRACE_HEADER];
      const trace = typeof label === "string" ? rec.start(decodeURIComponent(label)) : undefined;
      if (trace) als.run(trace, () => listener(req, res));
      else listener(req, res);
    };
  (http as { createServer: unknown }).createServer = (a: unknown, b?: unknown) =>
    typeof a === "function"
      ? original(wrap(a as Listener))
      : original(a as http.ServerOptions, wrap(b as Listener));
  try {
    return await start();
  } finally {
    (http as { createServer: unknown }).createServer = original;
  }
}

function remap(v: unknown, ids: Map<string, string>): unknown {
  if (Array.isArray(v)) return v.map((x) => remap(x, ids));
  // Rows sent as one JSON parameter (jsonb_to_recordset) carry IDs inside the text.
  if (typeof v === "string" && /^[[{]/.test(v)) {
    try {
      return JSON.stringify(remapJson(JSON.parse(v) as unknown, ids));
    } catch {
      return v;
    }
  }
  if (typeof v !== "string" && typeof v !== "number" && typeof v !== "bigint") return v;
  const to = ids.get(String(v));
  if (to === undefined) return v;
  return typeof v === "number" ? Number(to) : typeof v === "bigint" ? BigInt(to) : to;
}

function remapJson(v: unknown, ids: Map<string, string>): unknown {
  if (Array.isArray(v)) return v.map((x) => remapJson(x, ids));
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, remapJson(x, ids)]));
  return remap(v, ids);
}

/** A token's stored form (sha256 hex): unique, so a replay stores a fresh one where `fresh` is asked for. */
const TOKEN_HASH = /^[0-9a-f]{64}$/;

/**
 * One trace, statement by statement on one connection; IDs the product got back are mapped to the replay's, and
 * `rebased` IDs (recorded → replayed) from the first statement on. With `fresh`, each token hash the trace holds is
 * replaced by a random one (the same within the trace): a write of a new token, replayed as recorded, would hit its
 * unique index.
 */
export async function replay(
  pool: pg.Pool,
  trace: Trace,
  rebased?: Map<string, string>,
  fresh = false,
): Promise<unknown[]> {
  const client = await pool.connect();
  const ids = new Map<string, string>(rebased);
  let rows: unknown[] = [];
  try {
    for (const s of trace) {
      if (fresh) {
        for (const v of s.values)
          if (typeof v === "string" && TOKEN_HASH.test(v) && !ids.has(v))
            ids.set(v, crypto.randomBytes(32).toString("hex"));
      }
      const values = ids.size ? s.values.map((v) => remap(v, ids)) : s.values;
      // Named as the product named them: the baseline reuses plans where the product does.
      const r = await client.query({ name: s.name, text: s.text, values, rowMode: "array" });
      if (s.ids) {
        idsOf(r.fields, r.rows).forEach((now, i) => {
          const old = s.ids?.[i];
          if (old !== undefined && now !== old) ids.set(old, now);
        });
      }
      rows = r.rows;
    }
    return rows;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/**
 * The baseline server: `GET /<label>/<i>` replays trace i (modulo how many were recorded) of that label and
 * answers the last statement's rows as JSON; `?ids=a:b,c:d` replays it with ID a as b and c as d, `?fresh` with fresh
 * token hashes (replay).
 */
export async function startBaseline(
  url: string,
  rec: Recorder,
  poolSize = 10,
): Promise<{ url: string; pool: pg.Pool; close(): Promise<void> }> {
  const pool = new pg.Pool({ ...pgSession(url), max: poolSize });
  const server = http.createServer((req, res) => {
    const [, label = "", i = "0"] = /^\/([^/]+)\/(\d+)/.exec(req.url ?? "") ?? [];
    const traces = rec.get(decodeURIComponent(label));
    const trace = traces[Number(i) % Math.max(1, traces.length)];
    const pairs = new URL(req.url ?? "/", "http://x").searchParams.get("ids");
    const rebased = pairs
      ? new Map(pairs.split(",").map((p) => p.split(":") as [string, string]))
      : undefined;
    const fresh = new URL(req.url ?? "/", "http://x").searchParams.has("fresh");
    req.resume();
    if (!trace) {
      res.writeHead(404).end(`no trace for ${label}`);
      return;
    }
    replay(pool, trace, rebased, fresh).then(
      (rows) => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ data: rows }, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v)));
      },
      (err: Error) => res.writeHead(500).end(err.message),
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    pool,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await pool.end();
    },
  };
}
