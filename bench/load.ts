import http from "node:http";
import { Worker } from "node:worker_threads";

/** HTTP load for the benchmark: sequential latency runs and fixed-duration runs at a concurrency. */
export interface Req {
  method?: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  /** A form body (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
}

export interface Sample {
  n: number;
  failed: number;
  p50: number;
  p99: number;
  rps: number;
  /** The first failure's status and body, to tell what went wrong. */
  error?: string;
}

export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

/** The latencies of the 200s; other answers count as failures, the first one kept to tell what went wrong. */
function tally() {
  const lat: number[] = [];
  let failed = 0;
  let error: string | undefined;
  return {
    add(r: { status: number; body: string; ms: number }) {
      if (r.status === 200) lat.push(r.ms);
      else {
        failed++;
        error ??= `HTTP ${r.status} ${r.body.slice(0, 300)}`;
      }
    },
    sample(seconds: number): Sample {
      return {
        n: lat.length,
        failed,
        p50: pct(lat, 50),
        p99: pct(lat, 99),
        rps: lat.length / seconds,
        error,
      };
    },
  };
}

function send(
  agent: http.Agent,
  base: string,
  r: Req,
): Promise<{ status: number; body: string; ms: number }> {
  const body = r.form ? new URLSearchParams(r.form).toString() : undefined;
  const headers: Record<string, string | number> = { ...r.headers };
  if (body !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    headers["content-length"] = Buffer.byteLength(body);
  }
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const req = http.request(base + r.path, { method: r.method ?? "GET", agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          ms: performance.now() - t,
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The parsed envelope's data of one request (setup calls). */
export async function call<T>(base: string, r: Req): Promise<T> {
  const agent = new http.Agent();
  try {
    const res = await send(agent, base, r);
    if (res.status !== 200) throw new Error(`${r.method ?? "GET"} ${r.path}: HTTP ${res.status} ${res.body}`);
    return (JSON.parse(res.body) as { data: T }).data;
  } finally {
    agent.destroy();
  }
}

/**
 * `n` requests one after another (after `warmup` unmeasured ones): latency without queueing. Slow cases stop
 * early once `seconds` have passed (with at least 5 samples).
 */
export async function sequential(
  base: string,
  make: (i: number) => Req,
  opts: { n: number; warmup?: number; seconds?: number; onStart?: () => void },
): Promise<Sample> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const t0 = tally();
  try {
    for (let i = 0; i < (opts.warmup ?? 0); i++) await send(agent, base, make(i));
    opts.onStart?.();
    const t = performance.now();
    const until = t + (opts.seconds ?? Infinity) * 1000;
    for (let i = 0; i < opts.n; i++) {
      if (i >= 5 && performance.now() > until) break;
      t0.add(await send(agent, base, make(i)));
    }
    return t0.sample((performance.now() - t) / 1000);
  } finally {
    agent.destroy();
  }
}

/** `concurrency` workers sending requests for `seconds` (request `i` is the i-th sent overall). */
export async function concurrent(
  base: string,
  make: (i: number) => Req,
  opts: { concurrency: number; seconds: number; max?: number },
): Promise<Sample> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const t0 = tally();
  let k = 0;
  const t = performance.now();
  const end = t + opts.seconds * 1000;
  const max = opts.max ?? Infinity;
  try {
    await Promise.all(
      Array.from({ length: opts.concurrency }, async () => {
        while (performance.now() < end && k < max) {
          t0.add(
            await send(agent, base, make(k++)).catch((e: Error) => ({ status: 0, body: e.message, ms: 0 })),
          );
        }
      }),
    );
    return t0.sample((performance.now() - t) / 1000);
  } finally {
    agent.destroy();
  }
}

/** Requests made up front for a load run off the main thread (a closure cannot cross to the worker). */
const OFF_THREAD_REQUESTS = 60_000;

/**
 * `concurrent` from a worker thread: a real client is another process, and on the server's thread the load
 * generator's own HTTP work would count against the server.
 */
export function concurrentOffThread(
  base: string,
  make: (i: number) => Req,
  opts: { concurrency: number; seconds: number; max?: number; onStart?: () => void },
): Promise<Sample> {
  const reqs = Array.from({ length: Math.min(opts.max ?? Infinity, OFF_THREAD_REQUESTS) }, (_, i) => make(i));
  return new Promise((resolve, reject) => {
    // tsx registers in the worker first: a worker does not inherit the parent's TypeScript loader.
    const entry = JSON.stringify(new URL("./load-worker.ts", import.meta.url).href);
    const w = new Worker(
      `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${entry}); })`,
      { eval: true, workerData: { base, reqs, ...opts, onStart: undefined } },
    );
    w.on("message", (m: Sample | { started: true }) => {
      if ("started" in m) {
        opts.onStart?.();
        return;
      }
      resolve(m);
      void w.terminate();
    });
    w.once("error", reject);
  });
}

/** `n` calls of `job`, `concurrency` at a time, their results in call order (setting up a case's data). */
export async function pool<T>(n: number, concurrency: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array<T>(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await job(i);
      }
    }),
  );
  return out;
}
