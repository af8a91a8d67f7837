import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDb, type TestDb } from "../db/testing";
import type { Runtime } from "../server/runtime";
import { unique } from "../testing/factories";
import { foreground, restAfter } from "../server/foreground";
import { startRunner, type JobKind, type Runner } from "./runner";
import { enqueueJob } from "./store";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});

afterAll(async () => {
  await t?.close();
});

/** The runner reads only the database from its runtime; each "instance" here is a runtime of its own. */
const instance = () => ({ db: t.db }) as Runtime;
const row = (id: bigint) => t.db.job.findUniqueOrThrow({ where: { id } });

async function withRunner<T>(kinds: JobKind[], fn: (r: Runner, rt: Runtime) => Promise<T>): Promise<T> {
  const rt = instance();
  const r = await startRunner(rt, kinds, () => undefined);
  try {
    return await fn(r, rt);
  } finally {
    await r.stop(1_000);
  }
}

describe("the job runner", () => {
  it("runs a queued job once and records it done", async () => {
    const name = unique("kind");
    const seen: unknown[] = [];
    const id = await enqueueJob(t.db, { queue: name, payload: { n: 7 } });
    await withRunner([{ name, run: async (_rt, job) => void seen.push(job.payload) }], async (r) => {
      await r.poll(name);
    });
    expect(seen).toEqual([{ n: 7 }]);
    expect(await row(id)).toMatchObject({ status: "done", attempts: 1, lastError: null, leaseUntil: null });
  });

  it("retries a failing job with backoff, then fails it with the last error", async () => {
    const name = unique("kind");
    let runs = 0;
    const id = await enqueueJob(t.db, { queue: name, payload: {} });
    const kind: JobKind = {
      name,
      maxAttempts: 2,
      retryBaseMs: 1,
      run: async () => {
        throw new Error(`boom ${++runs}`);
      },
    };
    await withRunner([kind], async (r) => {
      await vi.waitFor(() => r.poll(name).then(async () => expect((await row(id)).status).toBe("failed")));
    });
    expect(await row(id)).toMatchObject({ status: "failed", attempts: 2, lastError: "boom 2" });
    expect(runs).toBe(2);
  });

  it("claims a job whose holder's lease ran out, as resumed", async () => {
    const name = unique("kind");
    const lapsed = await t.db.$queryRaw<{ id: bigint }[]>`
      INSERT INTO jobs (queue, status, attempts, lease_until, started)
      VALUES (${name}, 'running', 1, now() - interval '1 second', now() - interval '1 minute') RETURNING id`;
    const held = await t.db.$queryRaw<{ id: bigint }[]>`
      INSERT INTO jobs (queue, status, attempts, lease_until)
      VALUES (${name}, 'running', 1, now() + interval '1 minute') RETURNING id`;
    const runs: { id: bigint; resumed: boolean; attempts: number }[] = [];
    await withRunner([{ name, run: async (_rt, j) => void runs.push(j) }], (r) => r.poll(name));
    expect(runs.map((j) => ({ id: j.id, resumed: j.resumed, attempts: j.attempts }))).toEqual([
      { id: lapsed[0]!.id, resumed: true, attempts: 2 },
    ]);
    // A live lease is left to its holder.
    expect((await row(held[0]!.id)).status).toBe("running");
  });

  it("never hands one job to two instances", async () => {
    const name = unique("kind");
    const ids = await Promise.all(
      Array.from({ length: 40 }, () => enqueueJob(t.db, { queue: name, payload: {} })),
    );
    const ran: bigint[] = [];
    const kind: JobKind = { name, concurrency: 4, run: async (_rt, j) => void ran.push(j.id) };
    const a = await startRunner(instance(), [kind], () => undefined);
    const b = await startRunner(instance(), [kind], () => undefined);
    try {
      await vi.waitFor(
        async () => {
          await Promise.all([a.poll(name), b.poll(name)]);
          expect(await t.db.job.count({ where: { queue: name, status: "done" } })).toBe(ids.length);
        },
        { timeout: 20_000 },
      );
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    expect(ran.length).toBe(ids.length);
    expect(new Set(ran).size).toBe(ids.length);
  });

  it("at stop, asks handlers to stop and releases what they leave for the next claimer", async () => {
    const name = unique("kind");
    const polite = await enqueueJob(t.db, { queue: name, payload: { kind: "polite" } });
    const stubborn = await enqueueJob(t.db, { queue: name, payload: { kind: "stubborn" } });
    let started = 0;
    const kind: JobKind = {
      name,
      concurrency: 2,
      run: async (_rt, j) => {
        started++;
        if ((j.payload as { kind: string }).kind === "stubborn") return new Promise(() => {});
        await new Promise((r) => j.signal.addEventListener("abort", r));
        return "again";
      },
    };
    const r = await startRunner(instance(), [kind], () => undefined);
    r.wake(name);
    await vi.waitFor(() => expect(started).toBe(2), { timeout: 10_000 });
    await r.stop(200);
    for (const id of [polite, stubborn])
      expect(await row(id)).toMatchObject({ status: "queued", leaseUntil: null, attempts: 1 });
    expect(r.busy()).toEqual({ [name]: false });
  });

  it("keeps one row per periodic job for every instance, rescheduled after each run, failed or not", async () => {
    const name = unique("every");
    let runs = 0;
    const kind: JobKind = {
      name,
      everyMs: 3_600_000,
      firstAfterMs: 0,
      run: async () => {
        runs++;
        throw new Error("outage");
      },
    };
    const a = await startRunner(instance(), [kind], () => undefined);
    const b = await startRunner(instance(), [kind], () => undefined);
    try {
      await vi.waitFor(async () => {
        await Promise.all([a.poll(name), b.poll(name)]);
        expect(runs).toBe(1);
      });
      const rows = await t.db.job.findMany({ where: { queue: name } });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ key: `every:${name}`, status: "queued", lastError: "outage" });
      expect(rows[0]!.runAt.getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("runs background work one job at a time while requests are answered, resting after each; at once after", async () => {
    const name = unique("kind");
    const fg = foreground({ loaded: () => true });
    const rt = { db: t.db, foreground: fg } as Runtime;
    const runs: { start: number; end: number }[] = [];
    let now = 0;
    let most = 0;
    const kind: JobKind = {
      name,
      concurrency: 3,
      background: true,
      run: async () => {
        most = Math.max(most, ++now);
        const start = performance.now();
        await new Promise((r) => setTimeout(r, 30));
        runs.push({ start, end: performance.now() });
        now--;
      },
    };
    const enqueue = (n: number) =>
      Promise.all(Array.from({ length: n }, () => enqueueJob(t.db, { queue: name, payload: {} })));
    const done = () => t.db.job.count({ where: { queue: name, status: "done" } });
    const r = await startRunner(rt, [kind], () => undefined);
    try {
      fg.enter();
      await enqueue(4);
      r.wake(name);
      await vi.waitFor(async () => expect(await done()).toBe(4), { timeout: 20_000 });
      expect(most).toBe(1);
      // Each job after the first waited out the rest its predecessor earned (timers may fire a little early).
      for (let i = 1; i < runs.length; i++) {
        const prev = runs[i - 1]!;
        expect(runs[i]!.start - prev.end).toBeGreaterThanOrEqual(0.9 * restAfter(prev.end - prev.start));
      }

      fg.leave();
      await vi.waitFor(() => expect(fg.busy()).toBe(false));
      most = 0;
      await enqueue(6);
      r.wake(name);
      await vi.waitFor(async () => expect(await done()).toBe(10), { timeout: 20_000 });
      expect(most).toBe(3);
    } finally {
      await r.stop(1_000);
    }
  });
});
