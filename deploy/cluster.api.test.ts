import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "../lib/db/client";
import { migrate } from "../lib/db/migrate";
import { serverUrl } from "../lib/db/testing";
import { pct } from "../bench/load";
import { nginxInstalled, startCluster, type Cluster } from "./cluster";
import { arrivalMs, startLoad, type Answer, type Load } from "./cluster-load";

/**
 * Three instances behind deploy/nginx/relay.conf on PostgreSQL + Redis, under visitors and operators talking: one
 * instance killed (SIGKILL), then all three restarted one by one (SIGTERM: the drain). Its visitors reconnect
 * through nginx to the others and replay; no acknowledged request is lost or done twice; the restart shows no 5xx
 * but the drain's own 503s with Retry-After. CLUSTER_VISITORS sets the count (300 here; bench/cluster.ts: 4,500).
 */
const VISITORS = Number(process.env.CLUSTER_VISITORS ?? 300);
const ACTIVE = Math.min(VISITORS, 30);
const PER_SECOND = Number(process.env.CLUSTER_RATE ?? 10);
const redisUrl = process.env.REDIS_URL;
const base = serverUrl();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let cluster: Cluster | undefined;
let load: Load | undefined;
let handle: DbHandle | undefined;
afterAll(async () => {
  load?.close();
  await cluster?.stop();
  await handle?.close();
});

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

const summary = (xs: number[]) =>
  xs.length ? `p50 ${pct(xs, 50).toFixed(0)} ms, p99 ${pct(xs, 99).toFixed(0)} ms (${xs.length})` : "none";

describe.skipIf(!base || !redisUrl || !nginxInstalled())("three instances behind nginx", () => {
  it("keep every visitor live through a kill and a rolling restart, losing and repeating nothing", async () => {
    const name = `relay_cluster_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const u = new URL(base!);
    u.pathname = `/${name}`;
    const url = u.toString();
    await migrate({ url });
    handle = await openDb(url);
    const lots = "1000000";
    cluster = await startCluster({
      DATABASE_URL: url,
      REDIS_URL: redisUrl!,
      SEED_DEMO: "0",
      RATE_LIMIT_PER_SECOND: lots,
      RATE_LIMIT_BURST: lots,
      MESSENGER_VISITOR_PER_MINUTE: lots,
      MESSENGER_ADDRESS_PER_MINUTE: lots,
    });
    const c = cluster;
    load = await startLoad(handle.db, c.url, VISITORS, ACTIVE);
    const l = load;
    const figures: string[] = [
      `${VISITORS} visitors, ${PER_SECOND}/s replies and ${PER_SECOND}/s visitor messages`,
    ];

    l.run(PER_SECOND);
    await sleep(4000);

    l.phase = "kill";
    const victim = c.instances[1]!;
    await c.kill(victim);
    await until("every visitor reconnected after the kill", () => l.connected() === VISITORS, 60_000);
    figures.push(
      `after SIGKILL of ${victim.name}: ${l.reconnects.length} reconnects, ${summary(l.reconnects)}`,
    );
    await c.restart(victim);

    l.phase = "rolling";
    const reconnectsBefore = l.reconnects.length;
    for (const i of c.instances) {
      const started = performance.now();
      expect(await c.drain(i), `${i.name} exits cleanly`).toBe(0);
      figures.push(`${i.name} drained in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      await c.restart(i);
      await until("every visitor reconnected", () => l.connected() === VISITORS, 60_000);
    }
    figures.push(`rolling restart: ${summary(l.reconnects.slice(reconnectsBefore))}`);

    l.phase = "after";
    await sleep(4000);
    await l.stop();
    await sleep(3000);

    const replies = l.answers.filter((a) => a.kind === "reply");
    for (const phase of ["before", "kill", "rolling", "after"]) {
      const ms = replies.filter((a) => a.phase === phase).flatMap((a) => arrivalMs(l, a) ?? []);
      figures.push(`reply → visitor ${phase}: ${summary(ms)}`);
    }
    figures.push(`RSS: ${c.instances.map((i) => `${i.name} ${c.rssMb(i)} MB`).join(", ")}`);
    console.log(`cluster figures:\n  ${figures.join("\n  ")}`);

    // Every acknowledged reply reached its visitor (live or by replay).
    const missing = replies.filter((a) => a.status === 200 && arrivalMs(l, a) === undefined);
    expect(missing.map((a) => `${a.phase} ${a.body}`)).toEqual([]);
    // The restart: no 5xx but the drain's 503s with Retry-After.
    const bad = (a: Answer) => a.status !== 200 && !(a.status === 503 && a.retryAfter);
    expect(
      l.answers.filter((a) => a.answeredIn !== "kill" && bad(a)).map((a) => `${a.answeredIn} ${a.status}`),
    ).toEqual([]);
    // Nothing acknowledged is missing from the database, nothing is there twice.
    const rows = await handle.db.$queryRaw<{ body: string; n: number }[]>`
      SELECT substring(body FROM '(?:reply|visitor)-[0-9]+-[a-z0-9]+') AS body, count(*)::int AS n
      FROM conversation_parts WHERE body ~ '(reply|visitor)-[0-9]+-' GROUP BY 1`;
    const stored = new Map(rows.map((r) => [r.body, r.n]));
    expect(rows.filter((r) => r.n > 1)).toEqual([]);
    expect(l.answers.filter((a) => a.status === 200 && stored.get(a.body) !== 1).map((a) => a.body)).toEqual(
      [],
    );
    expect(l.answers.filter((a) => a.status === 200).length).toBeGreaterThan(PER_SECOND * 8);
  }, 600_000);
});
