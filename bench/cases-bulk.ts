import pg from "pg";
import { pgSession } from "../lib/db/client";
import { call } from "./load";
import { push, type Session } from "./harness";

interface Job {
  id: number;
  status: string;
  processed: number;
  failed: number;
}

/**
 * Bulk throughput: one job tags the dataset app's first open conversations (each through the single-conversation
 * service, its part, event and webhooks), followed on its GET until done; then one untags them, so a reused
 * dataset is left as it was. The figure is conversations per second from the job's acceptance to its end.
 */
export async function benchBulk(s: Session): Promise<void> {
  const n = Number(process.env.BENCH_BULK_CONVERSATIONS ?? 2000);
  const app = s.ds.appId;
  const c = new pg.Client(pgSession(s.ds.url));
  await c.connect();
  let ids: string[];
  try {
    const open = await c.query<{ id: string }>(
      "SELECT id FROM conversations WHERE app_id = $1 AND NOT closed ORDER BY id LIMIT $2",
      [app, n],
    );
    ids = open.rows.map((r) => r.id);
  } finally {
    await c.end();
  }
  const tag = `bench-bulk-${Date.now()}`;
  for (const action of ["tag", "untag"] as const) {
    const t0 = Date.now();
    const started = await call<Job>(s.api.url, {
      method: "POST",
      path: `/api/v2/apps/${app}/conversations/bulk`,
      headers: s.auth,
      form: { action, tag, selection: JSON.stringify({ ids }) },
    });
    let job = started;
    while (job.status === "pending" || job.status === "running") {
      await new Promise((r) => setTimeout(r, 100));
      job = await call<Job>(s.api.url, {
        path: `/api/v2/apps/${app}/conversations/bulk/${started.id}`,
        headers: s.auth,
      });
    }
    const ms = Date.now() - t0;
    push(s, {
      group: "bulk",
      case: `${action} ${ids.length} conversations, one job (accepted → done)`,
      n: job.processed,
      p50: ms,
      p99: ms,
      rps: (job.processed * 1000) / ms,
      failed: job.failed,
      ...(job.status !== "done" ? { error: `job ended ${job.status}` } : {}),
    });
  }
}
