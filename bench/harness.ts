import { issueApiKey } from "../lib/auth/tokens";
import { startServer, type RunningServer } from "../lib/compose/start";
import type { DbHandle } from "../lib/db/client";
import { Recorder, startBaseline, tracedDb, TRACE_HEADER, withTracing } from "./capture";
import { concurrent, concurrentOffThread, sequential, type Req, type Sample } from "./load";
import type { DatasetInfo } from "./dataset";

/**
 * One benchmark session: the product server in-process on the dataset (a traced connection pool), the baseline
 * server replaying what it recorded, and the figures, each measured against both in the same run.
 */
export interface Target {
  /** `rss+<`: the process's RSS growth during the case, in MB. */
  kind: "p50<" | "p99<" | "rps>=" | "rss+<";
  value: number;
  /** Where the target comes from. */
  source: string;
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

const traced = (label: string, r: Req): Req => ({
  ...r,
  headers: { ...r.headers, [TRACE_HEADER]: encodeURIComponent(label) },
});
const replayOf = (label: string) => (i: number) => ({ path: `/${encodeURIComponent(label)}/${i}` });

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
  const api = await sequential(s.api.url, make, { n, seconds });
  const base = await sequential(s.baseline.url, replayOf(label), { n: api.n + api.failed, warmup: 2 });
  return push(s, { group, case: label, ...api, base, target: opts.target, extra: opts.extra });
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
  const api = await concurrentOffThread(s.api.url, (i) => make(i + traceN), {
    concurrency: opts.concurrency,
    seconds,
  });
  const base = await concurrentOffThread(s.baseline.url, replayOf(label), {
    concurrency: opts.concurrency,
    seconds,
  });
  return push(s, { group, case: label, ...api, base, target: opts.target, extra: opts.extra });
}

export function push(s: Session, f: Figure): Figure {
  const traces = s.rec.get(f.case);
  if (traces.length) f.extra = { ...f.extra, statementsPerRequest: traces[0]!.length };
  s.figures.push(f);
  const b = f.base ? ` | baseline p50 ${f.base.p50.toFixed(1)} ms, ${Math.round(f.base.rps)}/s` : "";
  console.log(
    `  ${f.case}: n=${f.n} p50 ${f.p50.toFixed(1)} ms p99 ${f.p99.toFixed(1)} ms ${Math.round(f.rps)}/s${b}` +
      (f.failed ? ` (${f.failed} failed: ${f.error})` : "") +
      (f.base?.failed ? ` (baseline: ${f.base.failed} failed: ${f.base.error})` : ""),
  );
  return f;
}
