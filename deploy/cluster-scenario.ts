import pg from "pg";
import { openDb } from "../lib/db/client";
import { migrate } from "../lib/db/migrate";
import { startPgPair, type PgPair } from "../lib/testing/pg-clusters";
import { startCluster } from "./cluster";
import { arrivalMs, startLoad, type Answer } from "./cluster-load";

/**
 * The production scenario, shared by deploy/cluster.api.test.ts (which checks it) and `npm run bench -- cluster`
 * (which reports it): three instances behind nginx on a fresh database of `base`'s server, visitors and operators
 * talking; then one instance SIGKILLed and started again; then all three restarted one by one (SIGTERM: the drain).
 */
export interface ClusterRun {
  visitors: number;
  perSecond: number;
  /** Milliseconds from a socket's loss to its subscription again: after the kill, during the rolling restart. */
  reconnects: { kill: number[]; rolling: number[] };
  /** Reply → its visitor's socket, in ms, by the phase the reply was sent in. */
  latency: Record<"before" | "kill" | "rolling" | "after", number[]>;
  drainSeconds: number[];
  drainExits: (number | null)[];
  rssMb: Record<string, number>;
  /** Heavy reads the replica served, over every instance since its last start (with `replica`). */
  replicaReads: number;
  answers: Answer[];
  /** Acknowledged replies that never reached their visitor. */
  missing: Answer[];
  /** How many times each sent body is stored. */
  stored: Map<string, number>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

export async function runCluster(opts: {
  base: string;
  redisUrl: string;
  visitors: number;
  active: number;
  perSecond: number;
  /** On a primary and a streaming replica of the run's own (lib/testing/pg-clusters.ts), not on `base`'s server. */
  replica?: boolean;
}): Promise<ClusterRun> {
  const name = `relay_cluster_${process.pid}_${Date.now()}`;
  const pair: PgPair | undefined = opts.replica ? await startPgPair() : undefined;
  const server = pair ? pair.primaryUrl("postgres") : opts.base;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const u = new URL(server);
  u.pathname = `/${name}`;
  const url = u.toString();
  await migrate({ url });
  const handle = await openDb(url);
  const lots = "1000000";
  const cluster = await startCluster({
    DATABASE_URL: url,
    ...(pair ? { DATABASE_REPLICA_URL: pair.replicaUrl(name) } : {}),
    REDIS_URL: opts.redisUrl,
    SEED_DEMO: "0",
    RATE_LIMIT_PER_SECOND: lots,
    RATE_LIMIT_BURST: lots,
    MESSENGER_VISITOR_PER_MINUTE: lots,
    MESSENGER_ADDRESS_PER_MINUTE: lots,
  });
  const load = await startLoad(handle.db, cluster.url, opts.visitors, opts.active);
  try {
    const all = () => load.connected() === opts.visitors;
    load.run(opts.perSecond);
    await sleep(4000);

    load.phase = "kill";
    const victim = cluster.instances[1]!;
    await cluster.kill(victim);
    // Its visitors notice (the kernel resets their connections), then come back through the others.
    await until("the victim's visitors noticed", () => load.connected() < opts.visitors, 10_000);
    await until("every visitor reconnected after the kill", all, 60_000);
    const afterKill = load.reconnects.length;
    await cluster.restart(victim);

    load.phase = "rolling";
    const drainSeconds: number[] = [];
    const drainExits: (number | null)[] = [];
    for (const i of cluster.instances) {
      const started = performance.now();
      drainExits.push(await cluster.drain(i));
      drainSeconds.push((performance.now() - started) / 1000);
      await cluster.restart(i);
      await until("every visitor reconnected", all, 60_000);
    }
    const afterRolling = load.reconnects.length;

    load.phase = "after";
    await sleep(4000);
    let replicaReads = 0;
    for (const i of cluster.instances) {
      const text = await (await fetch(`${i.url}/metrics`)).text();
      const m = /^relay_replica_reads_total\{served_by="replica"\} (\d+)/m.exec(text);
      replicaReads += Number(m?.[1] ?? 0);
    }
    await load.stop();
    await sleep(3000);

    const replies = load.answers.filter((a) => a.kind === "reply");
    const latency = { before: [], kill: [], rolling: [], after: [] } as ClusterRun["latency"];
    for (const a of replies) {
      const ms = arrivalMs(load, a);
      if (ms !== undefined) latency[a.phase as keyof ClusterRun["latency"]].push(ms);
    }
    const rows = await handle.db.$queryRaw<{ body: string; n: number }[]>`
      SELECT substring(body FROM '(?:reply|visitor)-[0-9]+-[a-z0-9]+') AS body, count(*)::int AS n
      FROM conversation_parts WHERE body ~ '(reply|visitor)-[0-9]+-' GROUP BY 1`;
    return {
      visitors: opts.visitors,
      perSecond: opts.perSecond,
      reconnects: {
        kill: load.reconnects.slice(0, afterKill),
        rolling: load.reconnects.slice(afterKill, afterRolling),
      },
      latency,
      drainSeconds,
      drainExits,
      rssMb: Object.fromEntries(cluster.instances.map((i) => [i.name, cluster.rssMb(i)])),
      replicaReads,
      answers: load.answers,
      missing: replies.filter((a) => a.status === 200 && arrivalMs(load, a) === undefined),
      stored: new Map(rows.map((r) => [r.body, r.n])),
    };
  } finally {
    load.close();
    await cluster.stop();
    await handle.close();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
    pair?.stop();
  }
}
