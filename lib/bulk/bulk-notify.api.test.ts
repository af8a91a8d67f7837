import { describe, expect } from "vitest";
import type { Socket } from "socket.io-client";
import { it } from "../testing/fixture";
import { ok } from "../users/testing";
import type { Ctx } from "../auth/context";
import type { Notification } from "../notifications/schemas";
import type { BulkJob } from "./schemas";
import { BATCH, runBulkJob } from "./run-bulk";
import { bulkKit, ids, type Op } from "./testing";

const notificationsOf = async (op: Op) => ok<Notification[]>(await op.api.get("/api/notifications"));

function collect(socket: Socket, channel: string): Notification[] {
  const got: Notification[] = [];
  socket.on("message", (m: { channel: string; message: Notification }) => {
    if (m.channel === channel) got.push(m.message);
  });
  return got;
}

/** A signal that reads as aborted from its `after`-th look on: the runner stops there, as at a shutdown. */
const abortAfter = (after: number) => {
  let looks = 0;
  return {
    get aborted() {
      return ++looks > after;
    },
  } as AbortSignal;
};

describe("bulk jobs notify once per job", () => {
  it("tells the assignee once for all the job assigned, live and in the list; single assignments as before", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const kit = bulkKit(s, a);
    const op = await kit.operator();
    const target = await kit.operator();
    const list = await kit.conversations(12);
    const channel = `notification.${a.app.id}.${target.id}`;
    const socket = await sockets.open({ cookie: target.cookie });
    await socket.emitWithAck("subscribe", { channels: [channel] });
    const live = collect(socket, channel);

    const job = await kit.run(op.api, {
      action: "assign",
      assignee: Number(target.id),
      selection: { ids: ids(list) },
    });
    expect(job).toMatchObject({ status: "done", succeeded: 12, unchanged: 0 });
    const items = await notificationsOf(target);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      kind: "assigned",
      count: 12,
      bulk_job: job.id,
      conversation: Number(list[0]),
      actor: { id: Number(op.id) },
      read_at: null,
    });
    await expect.poll(() => live.length).toBe(1);
    expect(live[0]).toMatchObject({ id: items[0]!.id, count: 12, bulk_job: job.id });
    // The operator who ran it is told nothing of their own act.
    expect(await notificationsOf(op)).toEqual([]);

    // Moving them back to themselves tells nobody; a single assignment still tells at once, as one.
    await kit.run(op.api, { action: "assign", assignee: Number(op.id), selection: { ids: ids(list) } });
    ok(await op.api.postJson(`/api/conversations/${list[3]}/assign`, { admin: String(target.id) }));
    const after = await notificationsOf(target);
    expect(after).toHaveLength(2);
    expect(after[0]).toMatchObject({
      kind: "assigned",
      count: 1,
      bulk_job: null,
      conversation: Number(list[3]),
    });
  });

  it("a job stopped and resumed (one batch redone) still tells once, with the exact count", async ({
    server: s,
    app: a,
  }) => {
    const kit = bulkKit(s, a);
    const op = await kit.operator();
    const target = await kit.operator();
    const list = await kit.conversations(BATCH + 10);
    // Made here and run by hand (no runner row): the test plays the runner's claims.
    const row = await s.db.bulkJob.create({
      data: {
        appId: a.app.id,
        adminId: op.id,
        action: "assign",
        params: { assignee: String(target.id) },
        conversationIds: list,
        total: list.length,
      },
    });
    const { conversationIds, ...job } = row;
    const ctx: Ctx = {
      db: s.db,
      actor: { kind: "admin", adminId: op.id, sessionId: 0n, appIds: [a.app.id] },
      appId: a.app.id,
      requestId: "bulk-test",
      bulkJob: row.id,
    };
    const plan = {
      job,
      ids: conversationIds,
      action: "assign" as const,
      params: { assignee: String(target.id) },
    };

    // The first holder stops five conversations past a batch; then it "crashed" before saving them.
    expect(await runBulkJob(ctx, plan, { signal: abortAfter(BATCH + 5) })).toBe("again");
    expect(await notificationsOf(target)).toEqual([]);
    await s.db.bulkJob.update({ where: { id: row.id }, data: { processed: BATCH, succeeded: BATCH } });

    const saved = await s.db.bulkJob.findUniqueOrThrow({ where: { id: row.id } });
    const { conversationIds: _ids, ...resumed } = saved;
    await runBulkJob(ctx, { ...plan, job: resumed }, { signal: new AbortController().signal });
    const done = await s.db.bulkJob.findUniqueOrThrow({ where: { id: row.id } });
    expect(done).toMatchObject({ status: "done", processed: list.length, unchanged: 5 });
    expect((await kit.rows(list)).every((c) => c.assigneeId === target.id)).toBe(true);

    const items = await notificationsOf(target);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ count: list.length, bulk_job: Number(row.id) });
    // A stale holder finishing again tells nobody twice.
    await runBulkJob(ctx, { ...plan, job: resumed }, { signal: new AbortController().signal });
    expect(await notificationsOf(target)).toHaveLength(1);
    expect(await s.db.bulkJobNotice.count({ where: { bulkJobId: row.id } })).toBe(0);
  });

  it("counts only what the job assigned, not the conversations that failed", async ({
    server: s,
    app: a,
  }) => {
    const kit = bulkKit(s, a);
    const op = await kit.operator();
    const target = await kit.operator();
    const list = await kit.conversations(3);
    const job: BulkJob = await kit.run(op.api, {
      action: "assign",
      assignee: Number(target.id),
      selection: { ids: [...ids(list), 999999999] },
    });
    expect(job).toMatchObject({ succeeded: 3, failed: 1 });
    expect(await notificationsOf(target)).toMatchObject([{ count: 3, bulk_job: job.id }]);
  });
});
