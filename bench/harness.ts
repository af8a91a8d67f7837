import { writeFileSync } from "node:fs";
import path from "node:path";
import { issueApiKey } from "../lib/auth/tokens";
import { startServer, type RunningServer } from "../lib/compose/start";
import type { DbHandle } from "../lib/db/client";
import { Recorder, startBaseline, tracedDb, TRACE_HEADER, withTracing } from "./capture";
import { concurrent, concurrentOffThread, sequential, type Req, type Sample } from "./load";
import type { DatasetInfo } from "./dataset";
import { profileStart, profileStop } from "./profile";

/**
 * One benchmark session: the product server in-process on the dataset (a traced connection pool), the baseline
 * server replaying what it recorded, and the figures, each measured against both in the same run.
 */
export interface Target {
  /** `rss+<`: the process's RSS growth during the case, in MB; `rps>=base×`: req/s at least value × the baseline's. */
  kind: "p50<" | "p99<" | "rps>=" | "rss+<" | "rps>=base×";
  value: number;
}

export interface Figure {
  group: string;
  case: string;
  n: number;
  p50: number;
  p99: number;
  rps: number;
  failed: number;
  base?: Sample;
  target?: Target;
  error?: string;
  /** Anything else worth keeping: EXPLAIN summaries, memory. */
  extra?: Record<string, unknown>;
}

export const POOL_SIZE = 10;

export interface Session {
  ds: DatasetInfo;
  api: RunningServer;
  db: DbHandle;
  token: string;
  auth: Record<string, string>;
  rec: Recorder;
  baseline: { url: string; close(): Promise<void> };
  figures: Figure[];
  close(): Promise<void>;
}

export async function openSession(ds: DatasetInfo): Promise<Session> {
  const rec = new Recorder();
  const db = tracedDb(ds.url, POOL_SIZE);
  const { token } = await issueApiKey(db.db, {
    appId: ds.appId,
    name: `bench ${new Date().toISOString()}`,
  });
  const api = await withTracing(rec, () =>
    startServer({
      db,
      config: {
        databaseUrl: ds.url,
        port: 0,
        host: "127.0.0.1",
        seedDemo: false,
        rateLimitPerSecond: 1e9,
        rateLimitBurst: 1e9,
        // Every visitor case's requests come from 127.0.0.1, as a crowd behind one address would.
        messengerVisitorPerMinute: 1e9,
        messengerAddressPerMinute: 1e9,
        redisUrl: undefined,
        // The webhook case's receiver listens on 127.0.0.1.
        webhookAllowPrivate: true,
      },
      log: () => undefined,
    }),
  );
  const baseline = await startBaseline(ds.url, rec, POOL_SIZE);
  return {
    ds,
    api,
    db,
    token,
    auth: { authorization: `Token ${token}` },
    rec,
    baseline,
    figures: [],
    close: async () => {
      await baseline.close();
      await api.close();
      await db.close();
    },
  };
}

interface Metered {
  sample: Sample;
  /** This process's CPU time (every thread: the server or baseline, and the load) per request. */
  cpuMs: number;
}

/**
 * One side of a case, with the process's CPU time counted (and, for the API side under BENCH_PROFILE=1, its main
 * thread's samples summarised) from the moment its load starts. Figures from a profiled run carry the sampler's
 * own cost: read them from a run without it. Wall-clock figures on a loaded machine mostly measure the wait
 * for a core; CPU per request does not, and the load generator's share is the same on both sides.
 */
async function metered(
  label: string | undefined,
  run: (start: () => void) => Promise<Sample>,
): Promise<Metered> {
  let from: NodeJS.CpuUsage | undefined;
  let fromUs = 0;
  // Before the load: starting the profiler stalls this thread for a while (V8 logs every compiled function).
  if (label !== undefined) await profileStart();
  const start = () => {
    from = process.cpuUsage();
    fromUs = Number(process.hrtime.bigint() / 1000n);
  };
  const sample = await run(start);
  const used = process.cpuUsage(from);
  if (label !== undefined) await profileStop(label, fromUs);
  return { sample, cpuMs: (used.user + used.system) / 1000 / Math.max(1, sample.n + sample.failed) };
}

/** A case's figure from its two sides: the API's sample beside the baseline's, with both CPU costs. */
function pushSides(
  s: Session,
  group: string,
  label: string,
  api: Metered,
  base: Metered,
  opts: { target?: Target; extra?: Record<string, unknown> },
): Figure {
  return push(s, {
    group,
    case: label,
    ...api.sample,
    base: base.sample,
    target: opts.target,
    extra: {
      ...opts.extra,
      cpuMsPerRequest: +api.cpuMs.toFixed(2),
      baseCpuMsPerRequest: +base.cpuMs.toFixed(2),
    },
  });
}

const traced = (label: string, r: Req): Req => ({
  ...r,
  headers: { ...r.headers, [TRACE_HEADER]: encodeURIComponent(label) },
});
/**
 * IDs to replay a trace with instead of those it was recorded with (recorded → replayed), for a case whose writes
 * store values the product computed from the row (props: `add`, names). Replayed on the row that already holds
 * them, such a write changes nothing: PostgreSQL makes it a HOT update, without the index work the API's write
 * did (measured: every baseline props update was HOT, none of the API's). `trace` is the trace's number (the
 * request `make(trace)` recorded it), `request` the measured API request `make(request)` this replay stands for.
 */
export type Rebase = (trace: number, request: number) => Record<string, string>;

const replayOf =
  (s: Session, label: string, rebase?: Rebase, offset = 0, fresh = false) =>
  (i: number): Req => {
    const traces = s.rec.get(label).length;
    const ids = rebase && traces ? Object.entries(rebase(i % traces, i + offset)) : [];
    const q = [
      ...(ids.length ? [`ids=${ids.map(([a, b]) => `${a}:${b}`).join(",")}`] : []),
      ...(fresh ? ["fresh"] : []),
    ].join("&");
    return { path: `/${encodeURIComponent(label)}/${i}${q ? `?${q}` : ""}` };
  };

/**
 * A latency case: `warmup` traced requests (their SQL is what the baseline replays), then `n` measured ones
 * through the API and `n` through the baseline, one at a time.
 */
export async function latencyCase(
  s: Session,
  group: string,
  label: string,
  make: (i: number) => Req,
  opts: { n?: number; warmup?: number; target?: Target; extra?: Record<string, unknown> } = {},
): Promise<Figure> {
  const n = opts.n ?? Number(process.env.BENCH_N ?? 200);
  const warmup = opts.warmup ?? 20;
  await sequential(s.api.url, (i) => traced(label, make(i)), { n: warmup });
  const seconds = Number(process.env.BENCH_CASE_SECONDS ?? 30);
  const api = await metered(label, (start) => {
    start();
    return sequential(s.api.url, make, { n, seconds });
  });
  const base = await metered(undefined, (start) =>
    sequential(s.baseline.url, replayOf(s, label), {
      n: api.sample.n + api.sample.failed,
      warmup: 2,
      onStart: start,
    }),
  );
  return pushSides(s, group, label, api, base, opts);
}

/**
 * A throughput case: `concurrency` clients for `seconds` through the API, then the same against the baseline
 * replaying the traced requests (the first `trace` of the API run are traced) in the same order.
 */
export async function throughputCase(
  s: Session,
  group: string,
  label: string,
  make: (i: number) => Req,
  opts: {
    concurrency: number;
    seconds?: number;
    trace?: number;
    target?: Target;
    extra?: Record<string, unknown>;
    rebase?: Rebase;
    /** The requests write new tokens: replayed with fresh token hashes (capture.ts replay). */
    freshTokens?: boolean;
  },
): Promise<Figure> {
  const seconds = opts.seconds ?? Number(process.env.BENCH_SECONDS ?? 8);
  const traceN = opts.trace ?? 400;
  // The traced requests double as the warm-up.
  await concurrent(s.api.url, (i) => traced(label, make(i)), {
    concurrency: opts.concurrency,
    seconds: 60,
    max: traceN,
  });
  const api = await metered(label, (onStart) =>
    concurrentOffThread(s.api.url, (i) => make(i + traceN), {
      concurrency: opts.concurrency,
      seconds,
      onStart,
    }),
  );
  const base = await metered(undefined, (onStart) =>
    concurrentOffThread(s.baseline.url, replayOf(s, label, opts.rebase, traceN, opts.freshTokens), {
      concurrency: opts.concurrency,
      seconds,
      onStart,
    }),
  );
  return pushSides(s, group, label, api, base, opts);
}

export function push(s: Session, f: Figure): Figure {
  const traces = s.rec.get(f.case);
  // The mean: with group commit one request's trace holds the statements of the requests that joined its group.
  const statements = traces.reduce((n, t) => n + t.length, 0);
  if (traces.length) f.extra = { ...f.extra, statementsPerRequest: +(statements / traces.length).toFixed(2) };
  if (process.env.BENCH_TRACES === "1" && traces[0]) {
    // What the baseline replays, to tell the cost of each statement from the edge's.
    for (const st of traces[0]) console.log(`    sql: ${st.text.replace(/\s+/g, " ").slice(0, 160)}`);
    // Whole, with its values, to run again under EXPLAIN ANALYZE (BENCH_TRACES_DIR=dir: one JSON file per case).
    const dir = process.env.BENCH_TRACES_DIR;
    const json = JSON.stringify(traces[0], (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 1);
    if (dir) writeFileSync(path.join(dir, `${f.case.replace(/[^a-z0-9]+/gi, "_")}.json`), json);
  }
  s.figures.push(f);
  const b = f.base ? ` | baseline p50 ${f.base.p50.toFixed(1)} ms, ${Math.round(f.base.rps)}/s` : "";
  const c = f.extra?.cpuMsPerRequest as number | undefined;
  const cpuText =
    c === undefined ? "" : ` | CPU/request ${c} ms, baseline ${f.extra?.baseCpuMsPerRequest as number} ms`;
  console.log(
    `  ${f.case}: n=${f.n} p50 ${f.p50.toFixed(1)} ms p99 ${f.p99.toFixed(1)} ms ${Math.round(f.rps)}/s${b}` +
      cpuText +
      (f.failed ? ` (${f.failed} failed: ${f.error})` : "") +
      (f.base?.failed ? ` (baseline: ${f.base.failed} failed: ${f.base.error})` : ""),
  );
  return f;
}
