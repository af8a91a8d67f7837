import { expect } from "vitest";
import type { TestServer } from "../testing/server";
import type { TestApp } from "../testing/fixture";
import { makeAdmin, makeSession, makeUser, unique } from "../testing/factories";
import { client, type Client } from "../testing/http";
import { ok } from "../users/testing";
import type { BulkJob } from "./schemas";

/** An operator of an app, signed in: their API client and session cookie (for sockets). */
export interface Op {
  id: bigint;
  api: Client;
  cookie: string;
}

/**
 * The bulk API tests' helpers over a file's server, with `a` as the app of every call that names none. Made in the
 * file's `it.beforeAll`, once its fixtures are bound.
 */
export function bulkKit(s: TestServer, a: TestApp) {
  async function operator(app: TestApp = a): Promise<Op> {
    const admin = await makeAdmin(s.db, { appId: app.app.id });
    const session = await makeSession(s.db, admin.id);
    return { id: admin.id, api: client(s, session), cookie: session.cookie };
  }

  /** `n` visitor conversations of the app, each with the given tag (so a filter can find exactly them). */
  async function conversations(n: number, tag = unique("t"), app: TestApp = a): Promise<bigint[]> {
    const ids: bigint[] = [];
    for (let k = 0; k < n; k++) {
      const user = await makeUser(s.db, app.app.id);
      const c = ok<{ id: number }>(
        await app.api.postJson(`/api/users/${user.id}/startconversation`, { body: unique("hello") }),
      );
      ids.push(BigInt(c.id));
    }
    await s.db.conversation.updateMany({ where: { id: { in: ids } }, data: { tags: [tag] } });
    return ids;
  }

  const bulkPath = (app: TestApp = a) => `/api/apps/${app.app.id}/conversations/bulk`;

  async function finished(api: Client, id: number | string, app: TestApp = a): Promise<BulkJob> {
    const until = Date.now() + 120_000;
    for (;;) {
      const job = ok<BulkJob>(await api.get(`${bulkPath(app)}/${id}`));
      if (job.status === "done" || job.status === "failed") return job;
      if (Date.now() > until) throw new Error(`bulk job ${id} still ${job.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Starts a job and waits for its end. */
  async function run(api: Client, body: Record<string, unknown>, app: TestApp = a): Promise<BulkJob> {
    const job = ok<BulkJob>(await api.postJson(bulkPath(app), body));
    expect(["pending", "running", "done"]).toContain(job.status);
    return finished(api, job.id, app);
  }

  const rows = (ids: bigint[]) =>
    s.db.conversation.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });

  return { operator, conversations, bulkPath, finished, run, rows };
}

/** Conversation IDs as the API takes them. */
export const ids = (list: bigint[]) => list.map(Number);

/** A finished job's counters agree with each other and with the selection's size. */
export function addsUp(job: BulkJob, total: number) {
  expect(job.total).toBe(total);
  expect(job.processed).toBe(total);
  expect(job.succeeded + job.failed).toBe(job.processed);
  expect(job.unchanged).toBeLessThanOrEqual(job.succeeded);
}
