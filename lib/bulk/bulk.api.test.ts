import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { unique } from "../testing/factories";
import { ok } from "../users/testing";
import { eventsOf, lastEventId } from "../conversations/testing";
import type { BulkJob } from "./schemas";
import { addsUp, bulkKit, ids } from "./testing";

// What each action does to the conversations. Bad input, limits, counts, scopes and the progress socket:
// bulk-guards.api.test.ts.
describe("POST /apps/{id}/conversations/bulk", () => {
  it("closes listed conversations as the operator, with a part and an event each; closed ones are unchanged", async ({
    server: s,
    app: a,
  }) => {
    const kit = bulkKit(s, a);
    const op = await kit.operator();
    const list = await kit.conversations(4);
    ok(await op.api.postJson(`/api/conversations/${list[0]}/close`, {}));
    const before = await lastEventId(s.db);
    const job = await kit.run(op.api, { action: "close", selection: { ids: ids(list) } });
    expect(job).toMatchObject({
      status: "done",
      action: "close",
      admin: Number(op.id),
      failed: 0,
      unchanged: 1,
    });
    expect(job.finished).not.toBeNull();
    addsUp(job, 4);
    expect((await kit.rows(list)).map((c) => c.closed)).toEqual([true, true, true, true]);
    const parts = await s.db.conversationPart.findMany({
      where: { conversationId: { in: list.slice(1) }, type: "closed" },
    });
    expect(parts.map((p) => p.fromAdminId)).toEqual([op.id, op.id, op.id]);
    expect(parts.map((p) => p.sentVia)).toEqual(["web_admin", "web_admin", "web_admin"]);
    const events = await eventsOf(s.db, `conversation_closed.${a.app.id}`, before);
    expect(events).toHaveLength(3);
  });

  it("assigns what a filter matches when the job starts, not conversations arriving after", async ({
    server: s,
    app: a,
  }) => {
    const kit = bulkKit(s, a);
    const op = await kit.operator();
    const target = await kit.operator();
    const tag = unique("snap");
    const list = await kit.conversations(3, tag);
    const job = ok<BulkJob>(
      await op.api.postJson(kit.bulkPath(), {
        action: "assign",
        assignee: Number(target.id),
        selection: { filter: { tags: [tag] } },
      }),
    );
    expect(job.total).toBe(3);
    const late = await kit.conversations(1, tag);
    const done = await kit.finished(op.api, job.id);
    addsUp(done, 3);
    expect(done).toMatchObject({ status: "done", failed: 0, params: { assignee: Number(target.id) } });
    expect((await kit.rows(list)).map((c) => c.assigneeId)).toEqual([target.id, target.id, target.id]);
    expect((await kit.rows(late))[0]!.assigneeId).toBeNull();
    // 0 unassigns; the filter follows the list's own (assigned = that operator).
    const back = await kit.run(op.api, {
      action: "assign",
      assignee: 0,
      selection: { filter: { assigned: Number(target.id), tags: [tag] } },
    });
    addsUp(back, 3);
    expect((await kit.rows(list)).map((c) => c.assigneeId)).toEqual([null, null, null]);
  });

  it("snoozes (until, or a duration), reopens, tags and untags", async ({ server: s, app: a }) => {
    const kit = bulkKit(s, a);
    const list = await kit.conversations(2);
    const until = Math.floor(Date.now() / 1000) + 3600;
    const snoozed = await kit.run(a.api, {
      action: "snooze",
      snoozed_until: until,
      selection: { ids: ids(list) },
    });
    expect(snoozed).toMatchObject({
      status: "done",
      failed: 0,
      admin: null,
      params: { snoozed_until: until },
    });
    expect((await kit.rows(list)).map((c) => c.delayedUntil?.getTime())).toEqual([
      until * 1000,
      until * 1000,
    ]);
    const later = await kit.run(a.api, { action: "snooze", duration: 7200, selection: { ids: ids(list) } });
    expect(later.params.snoozed_until).toBeGreaterThan(until);

    await kit.run(a.api, { action: "close", selection: { ids: ids(list) } });
    const opened = await kit.run(a.api, { action: "open", selection: { ids: ids(list) } });
    expect(opened).toMatchObject({ succeeded: 2, unchanged: 0 });
    expect((await kit.rows(list)).map((c) => c.closed)).toEqual([false, false]);

    const tag = unique("vip");
    const tagged = await kit.run(a.api, { action: "tag", tag, selection: { ids: ids(list) } });
    expect(tagged).toMatchObject({ succeeded: 2, unchanged: 0, params: { tag } });
    expect((await kit.rows(list)).every((c) => c.tags.includes(tag))).toBe(true);
    await kit.run(a.api, { action: "untag", tag, selection: { ids: ids(list) } });
    expect((await kit.rows(list)).some((c) => c.tags.includes(tag))).toBe(false);
  });

  it("counts conversations of another app, and missing ones, as failed with their reason", async ({
    server: s,
    app: a,
    other,
  }) => {
    const kit = bulkKit(s, a);
    const mine = await kit.conversations(2);
    const theirs = await kit.conversations(1, unique("t"), other);
    const job = await kit.run(a.api, {
      action: "close",
      selection: { ids: [...ids(mine), ...ids(theirs), 999999999] },
    });
    expect(job).toMatchObject({ status: "done", succeeded: 2, failed: 2 });
    addsUp(job, 4);
    expect(job.errors).toEqual([
      { conversation: Number(theirs[0]), error: `Conversation ${theirs[0]} is not in this app.` },
      { conversation: 999999999, error: "Conversation 999999999 does not exist." },
    ]);
    expect((await kit.rows(theirs))[0]!.closed).toBe(false);
  });

  it("refuses another app's conversations to an operator of both apps", async ({
    server: s,
    app: a,
    other,
  }) => {
    const kit = bulkKit(s, a);
    const op = await kit.operator();
    await s.db.appAdmin.create({ data: { appId: other.app.id, adminId: op.id } });
    const theirs = await kit.conversations(1, unique("t"), other);
    const job = await kit.run(op.api, { action: "close", selection: { ids: ids(theirs) } });
    expect(job).toMatchObject({ succeeded: 0, failed: 1 });
    expect((await kit.rows(theirs))[0]!.closed).toBe(false);
  });

  it("finishes while the same conversations are changed concurrently", async ({ server: s, app: a }) => {
    const kit = bulkKit(s, a);
    const list = await kit.conversations(30);
    const start = ok<BulkJob>(
      await a.api.postJson(kit.bulkPath(), { action: "close", selection: { ids: ids(list) } }),
    );
    const writes = list.flatMap((id, k) =>
      k % 3 === 0
        ? [a.api.postJson(`/api/conversations/${id}/close`, {})]
        : k % 3 === 1
          ? [a.api.postJson(`/api/conversations/${id}/tag`, { tag: "busy" })]
          : [],
    );
    for (const r of await Promise.all(writes)) ok(r);
    const job = await kit.finished(a.api, start.id);
    expect(job).toMatchObject({ status: "done", failed: 0 });
    addsUp(job, 30);
    expect((await kit.rows(list)).every((c) => c.closed)).toBe(true);
  });
});
