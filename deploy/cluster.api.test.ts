import { describe, expect, it } from "vitest";
import { serverUrl } from "../lib/db/testing";
import { pct } from "../bench/load";
import { pgServerInstalled } from "../lib/testing/pg-clusters";
import { nginxInstalled } from "./cluster";
import type { Answer } from "./cluster-load";
import { runCluster } from "./cluster-scenario";

/**
 * Three instances behind deploy/nginx/relay.conf on PostgreSQL (a primary and a streaming replica, where the server
 * binaries are installed) + Redis, under visitors and operators talking and reading leads: one
 * instance killed (SIGKILL), then all three restarted one by one (SIGTERM: the drain). Its visitors reconnect
 * through nginx to the others and replay; no acknowledged request is lost or done twice; the restart shows no 5xx
 * but the drain's own 503s with Retry-After. CLUSTER_VISITORS sets the count (300 here; `npm run bench --
 * cluster`: 4,500).
 */
const VISITORS = Number(process.env.CLUSTER_VISITORS ?? 300);
const redisUrl = process.env.REDIS_URL;
const base = serverUrl();

const summary = (xs: number[]) =>
  xs.length ? `p50 ${pct(xs, 50).toFixed(0)} ms, p99 ${pct(xs, 99).toFixed(0)} ms (${xs.length})` : "none";

describe.skipIf(!base || !redisUrl || !nginxInstalled())("three instances behind nginx", () => {
  it("keep every visitor live through a kill and a rolling restart, losing and repeating nothing", async () => {
    const replica = pgServerInstalled();
    const r = await runCluster({
      replica,
      base: base!,
      redisUrl: redisUrl!,
      visitors: VISITORS,
      active: 30,
      perSecond: 10,
    });
    console.log(
      [
        `cluster: ${r.visitors} visitors; reconnect after SIGKILL ${summary(r.reconnects.kill)}, ` +
          `rolling restart ${summary(r.reconnects.rolling)}; drains ${r.drainSeconds.map((s) => s.toFixed(1)).join(", ")} s`,
        ...Object.entries(r.latency).map(([phase, ms]) => `  reply → visitor ${phase}: ${summary(ms)}`),
        `  RSS ${JSON.stringify(r.rssMb)} MB; leads lists served by the replica: ${r.replicaReads}`,
      ].join("\n"),
    );
    expect(r.drainExits).toEqual([0, 0, 0]);
    for (const s of r.drainSeconds) expect(s).toBeLessThan(30);
    // The killed instance held about a third of the visitors; every one of them came back.
    expect(r.reconnects.kill.length).toBeGreaterThan(VISITORS / 6);
    // Every acknowledged reply reached its visitor (live or by replay).
    expect(r.missing.map((a) => `${a.phase} ${a.body}`)).toEqual([]);
    // Outside the kill itself: no 5xx but the drain's 503s with Retry-After.
    const bad = (a: Answer) => a.status !== 200 && !(a.status === 503 && a.retryAfter);
    expect(
      r.answers
        .filter((a) => a.answeredIn !== "kill" && bad(a))
        .map((a) => `${a.answeredIn} ${a.kind} ${a.status}`),
    ).toEqual([]);
    // Nothing acknowledged is missing from the database, nothing is there twice.
    expect([...r.stored].filter(([, n]) => n > 1)).toEqual([]);
    const written = r.answers.filter((a) => a.kind !== "leads" && a.status === 200);
    expect(written.filter((a) => r.stored.get(a.body) !== 1).map((a) => a.body)).toEqual([]);
    // The leads lists (read by a token that writes nothing) went to the replica, through the restarts.
    if (replica) expect(r.replicaReads).toBeGreaterThan(0);
    expect(r.answers.filter((a) => a.status === 200).length).toBeGreaterThan(r.perSecond * 8);
  }, 600_000);
});
