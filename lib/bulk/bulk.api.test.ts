import { describe, expect } from "vitest";
import type { Socket } from "socket.io-client";
import type { TestServer } from "../testing/server";
import { it, type TestApp, type TestSockets } from "../testing/fixture";
import { makeAdmin, makeApp, makeSession, makeToken, makeUser, unique } from "../testing/factories";
import { client, type Client } from "../testing/http";
import { errorOf, ok } from "../users/testing";
import { eventsOf, lastEventId } from "../conversations/testing";
import { MAX_BULK_CONVERSATIONS, type BulkJob } from "./schemas";

let s: TestServer;
let a: TestApp;
let other: TestApp;
let sockets: TestSockets;

it.beforeAll(({ server, app, other: o, sockets: so }) => {
  s = server;
  a = app;
  other = o;
  sockets = so;
});

interface Op {
  id: bigint;
  api: Client;
  cookie: string;
}

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

async function run(api: Client, body: Record<string, unknown>, app: TestApp = a): Promise<BulkJob> {
  const job = ok<BulkJob>(await api.postJson(bulkPath(app), body));
  expect(["pending", "running", "done"]).toContain(job.status);
  return finished(api, job.id, app);
}

const rows = (ids: bigint[]) =>
  s.db.conversation.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
const ids = (list: bigint[]) => list.map(Number);

function addsUp(job: BulkJob, total: number) {
  expect(job.total).toBe(total);
  expect(job.processed).toBe(total);
  expect(job.succeeded + job.failed).toBe(job.processed);
  expect(job.unchanged).toBeLessThanOrEqual(job.succeeded);
}

describe("POST /apps/{id}/conversations/bulk", () => {
  it("closes listed conversations as the operator, with a part and an event each; closed ones are unchanged", async () => {
    const op = await operator();
    const list = await conversations(4);
    ok(await op.api.postJson(`/api/conversations/${list[0]}/close`, {}));
    const before = await lastEventId(s.db);
    const job = await run(op.api, { action: "close", selection: { ids: ids(list) } });
    expect(job).toMatchObject({
      status: "done",
      action: "close",
      admin: Number(op.id),
      failed: 0,
      unchanged: 1,
    });
    expect(job.finished).not.toBeNull();
    addsUp(job, 4);
    expect((await rows(list)).map((c) => c.closed)).toEqual([true, true, true, true]);
    const parts = await s.db.conversationPart.findMany({
      where: { conversationId: { in: list.slice(1) }, type: "closed" },
    });
    expect(parts.map((p) => p.fromAdminId)).toEqual([op.id, op.id, op.id]);
    expect(parts.map((p) => p.sentVia)).toEqual(["web_admin", "web_admin", "web_admin"]);
    const events = await eventsOf(s.db, `conversation_closed.${a.app.id}`, before);
    expect(events).toHaveLength(3);
  });

  it("assigns what a filter matches when the job starts, not conversations arriving after", async () => {
    const op = await operator();
    const target = await operator();
    const tag = unique("snap");
    const list = await conversations(3, tag);
    const job = ok<BulkJob>(
      await op.api.postJson(bulkPath(), {
        action: "assign",
        assignee: Number(target.id),
        selection: { filter: { tags: [tag] } },
      }),
    );
    expect(job.total).toBe(3);
    const late = await conversations(1, tag);
    const done = await finished(op.api, job.id);
    addsUp(done, 3);
    expect(done).toMatchObject({ status: "done", failed: 0, params: { assignee: Number(target.id) } });
    expect((await rows(list)).map((c) => c.assigneeId)).toEqual([target.id, target.id, target.id]);
    expect((await rows(late))[0]!.assigneeId).toBeNull();
    // 0 unassigns; the filter follows the list's own (assigned = that operator).
    const back = await run(op.api, {
      action: "assign",
      assignee: 0,
      selection: { filter: { assigned: Number(target.id), tags: [tag] } },
    });
    addsUp(back, 3);
    expect((await rows(list)).map((c) => c.assigneeId)).toEqual([null, null, null]);
  });

  it("snoozes (until, or a duration), reopens, tags and untags", async () => {
    const list = await conversations(2);
    const until = Math.floor(Date.now() / 1000) + 3600;
    const snoozed = await run(a.api, {
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
    expect((await rows(list)).map((c) => c.delayedUntil?.getTime())).toEqual([until * 1000, until * 1000]);
    const later = await run(a.api, { action: "snooze", duration: 7200, selection: { ids: ids(list) } });
    expect(later.params.snoozed_until).toBeGreaterThan(until);

    await run(a.api, { action: "close", selection: { ids: ids(list) } });
    const opened = await run(a.api, { action: "open", selection: { ids: ids(list) } });
    expect(opened).toMatchObject({ succeeded: 2, unchanged: 0 });
    expect((await rows(list)).map((c) => c.closed)).toEqual([false, false]);

    const tag = unique("vip");
    const tagged = await run(a.api, { action: "tag", tag, selection: { ids: ids(list) } });
    expect(tagged).toMatchObject({ succeeded: 2, unchanged: 0, params: { tag } });
    expect((await rows(list)).every((c) => c.tags.includes(tag))).toBe(true);
    await run(a.api, { action: "untag", tag, selection: { ids: ids(list) } });
    expect((await rows(list)).some((c) => c.tags.includes(tag))).toBe(false);
  });

  it("counts conversations of another app, and missing ones, as failed with their reason", async () => {
    const mine = await conversations(2);
    const theirs = await conversations(1, unique("t"), other);
    const job = await run(a.api, {
      action: "close",
      selection: { ids: [...ids(mine), ...ids(theirs), 999999999] },
    });
    expect(job).toMatchObject({ status: "done", succeeded: 2, failed: 2 });
    addsUp(job, 4);
    expect(job.errors).toEqual([
      { conversation: Number(theirs[0]), error: `Conversation ${theirs[0]} is not in this app.` },
      { conversation: 999999999, error: "Conversation 999999999 does not exist." },
    ]);
    expect((await rows(theirs))[0]!.closed).toBe(false);
  });

  it("refuses another app's conversations to an operator of both apps", async () => {
    const op = await operator();
    await s.db.appAdmin.create({ data: { appId: other.app.id, adminId: op.id } });
    const theirs = await conversations(1, unique("t"), other);
    const job = await run(op.api, { action: "close", selection: { ids: ids(theirs) } });
    expect(job).toMatchObject({ succeeded: 0, failed: 1 });
    expect((await rows(theirs))[0]!.closed).toBe(false);
  });

  it("finishes while the same conversations are changed concurrently", async () => {
    const list = await conversations(30);
    const start = ok<BulkJob>(
      await a.api.postJson(bulkPath(), { action: "close", selection: { ids: ids(list) } }),
    );
    const writes = list.flatMap((id, k) =>
      k % 3 === 0
        ? [a.api.postJson(`/api/conversations/${id}/close`, {})]
        : k % 3 === 1
          ? [a.api.postJson(`/api/conversations/${id}/tag`, { tag: "busy" })]
          : [],
    );
    for (const r of await Promise.all(writes)) ok(r);
    const job = await finished(a.api, start.id);
    expect(job).toMatchObject({ status: "done", failed: 0 });
    addsUp(job, 30);
    expect((await rows(list)).every((c) => c.closed)).toBe(true);
  });

  it("answers bad input in the envelope", async () => {
    const one = { ids: [1] };
    const refused = async (body: Record<string, unknown>, field: string) => {
      const r = await a.api.postJson(bulkPath(), body);
      errorOf(r, 400, "ValidationError");
      const keys = Object.keys(r.body.meta.error_fields ?? {});
      expect(
        keys.some((k) => k === field || k.startsWith(`${field}.`)),
        keys.join(),
      ).toBe(true);
    };
    await refused({ action: "explode", selection: one }, "action");
    await refused({ action: "assign", selection: one }, "assignee");
    await refused({ action: "close", tag: "x", selection: one }, "tag");
    await refused({ action: "tag", selection: one }, "tag");
    await refused({ action: "snooze", selection: one }, "snoozed_until");
    await refused({ action: "snooze", snoozed_until: 1000, selection: one }, "snoozed_until");
    await refused({ action: "close" }, "selection");
    await refused({ action: "close", selection: { ids: [] } }, "selection");
    await refused({ action: "close", selection: { ids: [1], filter: {} } }, "selection");
    await refused({ action: "close", selection: { filter: { colour: "red" } } }, "selection");
    await refused({ action: "close", selection: "everything" }, "selection");
    const many = Array.from({ length: MAX_BULK_CONVERSATIONS + 1 }, (_, k) => k + 1);
    await refused({ action: "close", selection: { ids: many } }, "selection");
    // An assignee who is not an operator of the app: refused before anything changes.
    const stranger = await makeAdmin(s.db);
    errorOf(
      await a.api.postJson(bulkPath(), { action: "assign", assignee: Number(stranger.id), selection: one }),
      400,
      "LookupError",
    );
  });

  it(`refuses a filter matching over ${MAX_BULK_CONVERSATIONS} conversations, whole`, async () => {
    const big = await makeApp(s.db);
    const api = client(s, big.token);
    const user = await makeUser(s.db, big.app.id);
    await s.db.$executeRaw`
      INSERT INTO conversations (app_id, user_id, has_user_replies)
      SELECT ${big.app.id}, ${user.id}, true FROM generate_series(1, ${MAX_BULK_CONVERSATIONS + 1})`;
    const r = await api.postJson(`/api/apps/${big.app.id}/conversations/bulk`, {
      action: "close",
      selection: { filter: {} },
    });
    errorOf(r, 400, "ValidationError");
    expect((r.body.meta.error_fields as Record<string, string>).selection).toMatch(/at most 10000/);
    expect(await s.db.bulkJob.count({ where: { appId: big.app.id } })).toBe(0);
    expect(ok(await api.get(`/api/apps/${big.app.id}/conversations/bulk_count`))).toEqual({
      count: MAX_BULK_CONVERSATIONS,
      over_limit: true,
    });
  }, 120_000);

  it("counts what a filter matches, for the offer to select them all", async () => {
    const tag = unique("count");
    await conversations(3, tag);
    const count = (q: Record<string, unknown>) => a.api.get(`${bulkPath()}_count`, q);
    expect(ok(await count({ tags: [tag] }))).toEqual({ count: 3, over_limit: false });
    expect(ok(await count({ tags: [tag], closed: true }))).toEqual({ count: 0, over_limit: false });
    errorOf(await count({ assistant_type: "robot" }), 400, "ValidationError");
    errorOf(await a.api.get(`${bulkPath(other)}_count`), 403, "PermissionDenied");
  });

  it("needs conversations-write, and an app of the caller", async () => {
    const reader = client(s, await makeToken(s.db, a.app.id, ["conversations-read"]));
    errorOf(
      await reader.postJson(bulkPath(), { action: "close", selection: { ids: [1] } }),
      403,
      "PermissionDenied",
    );
    errorOf(
      await a.api.postJson(bulkPath(other), { action: "close", selection: { ids: [1] } }),
      403,
      "PermissionDenied",
    );
    const job = await run(other.api, { action: "close", selection: { ids: [1] } }, other);
    errorOf(await a.api.get(`${bulkPath(other)}/${job.id}`), 403, "PermissionDenied");
    errorOf(await a.api.get(`${bulkPath()}/${job.id}`), 400, "LookupError");
  });
});

function messages(socket: Socket, channel: string): BulkJob[] {
  const seen: BulkJob[] = [];
  socket.on("message", (m: { channel: string; message: BulkJob }) => {
    if (m.channel === channel) seen.push(m.message);
  });
  return seen;
}

describe("bulk job progress over the socket", () => {
  it("reaches the operator who started it, up to the end; no one else may listen", async () => {
    const op = await operator();
    const channel = `bulk_job.${a.app.id}.${op.id}`;
    const socket = await sockets.open({ cookie: op.cookie });
    const ack = (await socket.emitWithAck("subscribe", { channels: [channel] })) as { subscribed: string[] };
    expect(ack.subscribed).toEqual([channel]);
    const seen = messages(socket, channel);
    const list = await conversations(30);
    const job = await run(op.api, { action: "tag", tag: "bulk", selection: { ids: ids(list) } });
    await expect.poll(() => seen.at(-1)?.status, { timeout: 10_000 }).toBe("done");
    expect(seen.at(-1)).toEqual(job);
    const processed = seen.map((m) => m.processed);
    expect(processed).toEqual([...processed].sort((x, y) => x - y));

    const peer = await operator();
    const theirs = await sockets.open({ cookie: peer.cookie });
    const refused = (await theirs.emitWithAck("subscribe", { channels: [channel] })) as {
      subscribed: string[];
    };
    expect(refused.subscribed).toEqual([]);
    const token = await sockets.open({ token: a.token });
    const byToken = (await token.emitWithAck("subscribe", { channels: [channel] })) as {
      subscribed: string[];
    };
    expect(byToken.subscribed).toEqual([]);
  });
});
