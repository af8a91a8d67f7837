import { nginxInstalled } from "../deploy/cluster";
import { pgServerInstalled } from "../lib/testing/pg-clusters";
import { runCluster } from "../deploy/cluster-scenario";
import type { Figure } from "./harness";
import { pct } from "./load";

/**
 * `npm run bench -- cluster`: BENCH_CLUSTER_VISITORS (4,500) visitor sockets over three instances behind nginx
 * (deploy/nginx/relay.conf), replies and visitor messages at BENCH_CLUSTER_RATE (20/s each); one instance
 * SIGKILLed, then a rolling restart (deploy/cluster-scenario.ts). Reconnect time, reply → visitor latency before,
 * during and after, RSS per instance. Needs PostgreSQL (DATABASE_URL), Redis (REDIS_URL) and nginx.
 */
export async function benchCluster(log = console.log): Promise<Figure[]> {
  const base = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!base?.startsWith("postgres") || !redisUrl || !nginxInstalled()) {
    log("cluster: skipped (needs DATABASE_URL=postgresql://…, REDIS_URL and nginx)");
    return [];
  }
  const visitors = Number(process.env.BENCH_CLUSTER_VISITORS ?? 4500);
  const perSecond = Number(process.env.BENCH_CLUSTER_RATE ?? 20);
  const r = await runCluster({
    base,
    redisUrl,
    visitors,
    active: 100,
    perSecond,
    replica: pgServerInstalled(),
  });
  const extra = {
    rssMb: r.rssMb,
    replicaReads: r.replicaReads,
    drainSeconds: r.drainSeconds,
    missing: r.missing.length,
    stored_twice: [...r.stored.values()].filter((n) => n > 1).length,
    non_200_outside_kill: r.answers.filter((a) => a.answeredIn !== "kill" && a.status !== 200).length,
  };
  const figure = (what: string, xs: number[], target?: Figure["target"]): Figure => ({
    group: "cluster",
    case: `${what}, ${visitors} visitors on 3 instances`,
    n: xs.length,
    p50: pct(xs, 50),
    p99: pct(xs, 99),
    rps: NaN,
    failed: 0,
    target,
    extra,
  });
  const rows = [
    figure("reconnect after SIGKILL of one instance", r.reconnects.kill),
    figure("reconnect during a rolling restart", r.reconnects.rolling),
    figure("reply → visitor before", r.latency.before),
    figure("reply → visitor during kill", r.latency.kill),
    figure("reply → visitor during rolling restart", r.latency.rolling),
    figure("reply → visitor after", r.latency.after),
  ];
  for (const f of rows) log(`  ${f.case}: p50 ${f.p50.toFixed(0)} ms p99 ${f.p99.toFixed(0)} ms (n ${f.n})`);
  log(`  RSS per instance ${JSON.stringify(r.rssMb)} MB; ${JSON.stringify(extra)}`);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await benchCluster());
}
