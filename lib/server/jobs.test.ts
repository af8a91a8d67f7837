import { describe, expect, it } from "vitest";
import { startJobs, type Job } from "./jobs";
import type { Runtime } from "./runtime";

// The registry only hands the runtime to its jobs: these jobs do not read it.
const rt = {} as Runtime;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("startJobs", () => {
  it("runs a job on its interval, never overlapping itself, and stop waits for the run in flight", async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    let finished = 0;
    const slow: Job = {
      name: "slow",
      everyMs: 5,
      run: async () => {
        runs++;
        most = Math.max(most, ++active);
        await sleep(40);
        active--;
        finished++;
      },
    };
    const jobs = await startJobs(rt, [slow]);
    await sleep(200);
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(most).toBe(1);
    while (active === 0) await sleep(2);
    await jobs.stop();
    expect(active).toBe(0);
    expect(finished).toBe(runs);
    expect(jobs.idle()).toEqual({ slow: true });
    await sleep(50);
    expect(runs).toBe(finished);
  });

  it("bounds the wait for a run that never ends", async () => {
    const stuck: Job = { name: "stuck", everyMs: 5, startNow: false, run: () => new Promise(() => {}) };
    const jobs = await startJobs(rt, [stuck], { stopWithinMs: 50 });
    await sleep(20);
    const t0 = Date.now();
    await jobs.stop();
    expect(Date.now() - t0).toBeLessThan(1_000);
  });

  it("logs one line per failure streak, not one per tick", async () => {
    const lines: string[] = [];
    // Fails three times, recovers twice, fails again until stopped.
    const script = [false, false, false, true, true];
    let n = 0;
    const flaky: Job = {
      name: "flaky",
      everyMs: 5,
      run: async () => {
        if (!(script[n++] ?? false)) throw new Error(`outage ${n}`);
      },
    };
    const jobs = await startJobs(rt, [flaky], { log: (l) => lines.push(l) });
    while (n < 9) await sleep(5);
    await jobs.stop();
    expect(lines).toEqual([
      "job flaky failed, retrying every 5 ms: outage 1",
      "job flaky failed, retrying every 5 ms: outage 6",
    ]);
  });

  it("treats a run that throws before returning its promise as a failure like any other", async () => {
    const lines: string[] = [];
    const broken: Job = {
      name: "broken",
      everyMs: 5,
      startNow: true,
      run: () => {
        throw new Error("no promise");
      },
    };
    const jobs = await startJobs(rt, [broken], { log: (l) => lines.push(l) });
    await sleep(30);
    await jobs.stop();
    expect(lines).toEqual(["job broken failed, retrying every 5 ms: no promise"]);
    expect(jobs.idle()).toEqual({ broken: true });
  });

  it("runs startNow jobs before it returns, the others after their first delay; stop leaves no timer", async () => {
    const ran: string[] = [];
    const job = (name: string, extra: Partial<Job>): Job => ({
      name,
      everyMs: 60_000,
      run: async () => void ran.push(name),
      ...extra,
    });
    const jobs = await startJobs(rt, [
      job("now", { startNow: true }),
      job("soon", { firstAfterMs: 20 }),
      job("later", {}),
    ]);
    expect(ran).toEqual(["now"]);
    expect(jobs.idle()).toEqual({ now: false, soon: false, later: false });
    await sleep(60);
    expect(ran).toEqual(["now", "soon"]);
    await jobs.stop();
    expect(jobs.idle()).toEqual({ now: true, soon: true, later: true });
  });
});
