import { describe, expect, it, vi } from "vitest";
import { startLoop } from "./loop";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("startLoop", () => {
  it("polls on its interval, never overlaps a round, and stop waits for the round in flight", async () => {
    let active = 0;
    let most = 0;
    let rounds = 0;
    let finished = 0;
    let release: (() => void) | undefined;
    const loop = startLoop({
      name: "slow",
      everyMs: 5,
      round: async () => {
        rounds++;
        most = Math.max(most, ++active);
        // Wakes during a round must not start a second one beside it.
        loop.wake();
        loop.wake();
        await new Promise<void>((r) => (release = r));
        active--;
        finished++;
        return false;
      },
    });
    for (let i = 0; i < 3; i++) {
      await vi.waitFor(() => expect(release).toBeDefined());
      const r = release!;
      release = undefined;
      r();
    }
    await vi.waitFor(() => expect(release).toBeDefined());
    const stopped = loop.stop();
    expect(loop.busy()).toBe(true);
    release!();
    await stopped;
    expect(most).toBe(1);
    expect(finished).toBe(rounds);
    expect(loop.busy()).toBe(false);
  });

  it("runs again at once while a round reports more, without waiting for the poll", async () => {
    let left = 5;
    const loop = startLoop({ name: "drain", everyMs: 60_000, round: async () => --left > 0 });
    await loop.poll();
    expect(left).toBe(0);
    await loop.stop();
  });

  it("logs one line per failure streak, not one per round", async () => {
    const lines: string[] = [];
    // Fails three times, recovers twice, fails again until stopped.
    const script = [false, false, false, true, true];
    let n = 0;
    const loop = startLoop({
      name: "flaky",
      everyMs: 60_000,
      log: (l) => lines.push(l),
      round: async () => {
        if (!(script[n++] ?? false)) throw new Error(`outage ${n}`);
        return false;
      },
    });
    while (n < 9) await loop.poll();
    await loop.stop();
    expect(lines).toEqual([
      "flaky failed, retrying every 60000 ms: outage 1",
      "flaky failed, retrying every 60000 ms: outage 6",
    ]);
  });

  it("treats a round that throws before returning its promise as a failure like any other", async () => {
    const lines: string[] = [];
    const loop = startLoop({
      name: "broken",
      everyMs: 60_000,
      log: (l) => lines.push(l),
      round: () => {
        throw new Error("no promise");
      },
    });
    await loop.poll();
    await loop.stop();
    expect(lines).toEqual(["broken failed, retrying every 60000 ms: no promise"]);
  });

  it("does nothing once stopped: no round, no timer", async () => {
    let rounds = 0;
    const loop = startLoop({ name: "idle", everyMs: 1, round: async () => (rounds++, false) });
    await loop.stop();
    const at = rounds;
    loop.wake();
    await loop.poll();
    await sleep(10);
    expect(rounds).toBe(at);
    expect(loop.busy()).toBe(false);
  });
});
