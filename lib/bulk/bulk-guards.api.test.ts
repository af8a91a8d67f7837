import { describe, expect } from "vitest";
import type { Socket } from "socket.io-client";
import { it } from "../testing/fixture";
import { makeAdmin, makeApp, makeToken, makeUser, unique } from "../testing/factories";
import { client } from "../testing/http";
import { errorOf, ok } from "../users/testing";
import { MAX_BULK_CONVERSATIONS, type BulkJob } from "./schemas";
import { bulkKit, ids } from "./testing";

// Around the bulk actions (bulk.api.test.ts): bad input, the size limit, the count, scopes, and the progress socket.
describe("POST /apps/{id}/conversations/bulk: refusals and counts", () => {
  it("answers bad input in the envelope", async ({ server: s, app: a }) => {
    const kit = bulkKit(s, a);
    const one = { ids: [1] };
    const refused = async (body: Record<string, unknown>, field: string) => {
      const r = await a.api.postJson(kit.bulkPath(), body);
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
      await a.api.postJson(kit.bulkPath(), {
        action: "assign",
        assignee: Number(stranger.id),
        selection: one,
      }),
      400,
      "LookupError",
    );
  });

  it(`refuses a filter matching over ${MAX_BULK_CONVERSATIONS} conversations, whole`, async ({
    server: s,
  }) => {
    const big = await makeApp(s.db);
    const api = client(s, big.token);
    const user = await makeUser(s.db, big.app.id);
    // Each in its own quarter hour: one statement adding 10,001 starts to a single report rollup row would update
    // that row 10,001 times in one transaction, each update walking the row's growing chain of versions.
    await s.db.$executeRaw`
      INSERT INTO conversations (app_id, user_id, has_user_replies, created)
      SELECT ${big.app.id}, ${user.id}, true, now() - g * interval '15 minutes'
      FROM generate_series(1, ${MAX_BULK_CONVERSATIONS + 1}) g`;
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

  it("counts what a filter matches, for the offer to select them all", async ({
    server: s,
    app: a,
    other,
  }) => {
    const kit = bulkKit(s, a);
    const tag = unique("count");
    await kit.conversations(3, tag);
    const count = (q: Record<string, unknown>) => a.api.get(`${kit.bulkPath()}_count`, q);
    expect(ok(await count({ tags: [tag] }))).toEqual({ count: 3, over_limit: false });
    expect(ok(await count({ tags: [tag], closed: true }))).toEqual({ count: 0, over_limit: false });
    errorOf(await count({ assistant_type: "robot" }), 400, "ValidationError");
    errorOf(await a.api.get(`${kit.bulkPath(other)}_count`), 403, "PermissionDenied");
  });

  it("needs conversations-write, and an app of the caller", async ({ server: s, app: a, other, scoped }) => {
    const kit = bulkKit(s, a);
    const reader = await scoped(["conversations-read"]);
    errorOf(
      await reader.postJson(kit.bulkPath(), { action: "close", selection: { ids: [1] } }),
      403,
      "PermissionDenied",
    );
    errorOf(
      await a.api.postJson(kit.bulkPath(other), { action: "close", selection: { ids: [1] } }),
      403,
      "PermissionDenied",
    );
    const job = await kit.run(other.api, { action: "close", selection: { ids: [1] } }, other);
    errorOf(await a.api.get(`${kit.bulkPath(other)}/${job.id}`), 403, "PermissionDenied");
    errorOf(await a.api.get(`${kit.bulkPath()}/${job.id}`), 400, "LookupError");
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
  it("reaches the operator who started it, up to the end; no one else may listen", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const kit = bulkKit(s, a);
    const op = await kit.operator();
    const channel = `bulk_job.${a.app.id}.${op.id}`;
    const socket = await sockets.open({ cookie: op.cookie });
    const ack = (await socket.emitWithAck("subscribe", { channels: [channel] })) as { subscribed: string[] };
    expect(ack.subscribed).toEqual([channel]);
    const seen = messages(socket, channel);
    const list = await kit.conversations(30);
    const job = await kit.run(op.api, { action: "tag", tag: "bulk", selection: { ids: ids(list) } });
    await expect.poll(() => seen.at(-1)?.status, { timeout: 10_000 }).toBe("done");
    expect(seen.at(-1)).toEqual(job);
    const processed = seen.map((m) => m.processed);
    expect(processed).toEqual([...processed].sort((x, y) => x - y));

    const peer = await kit.operator();
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

describe("a bulk job's end, for every panel of the app", () => {
  it("reaches each operator and conversation-reading token of the app after the job's last change", async ({
    server: s,
    app: a,
    other,
    sockets,
  }) => {
    const kit = bulkKit(s, a);
    const peer = await kit.operator();
    const channel = `conversation_bulk.${a.app.id}`;
    const theirs = await sockets.open({ cookie: peer.cookie });
    const ack = (await theirs.emitWithAck("subscribe", { channels: [channel] })) as { subscribed: string[] };
    expect(ack.subscribed).toEqual([channel]);
    const reader = await sockets.open({ token: await makeToken(s.db, a.app.id, ["conversations-read"]) });
    const read = (await reader.emitWithAck("subscribe", { channels: [channel] })) as { subscribed: string[] };
    expect(read.subscribed).toEqual([channel]);
    const outsider = await sockets.open({ cookie: (await kit.operator(other)).cookie });
    const refused = (await outsider.emitWithAck("subscribe", { channels: [channel] })) as {
      subscribed: string[];
    };
    expect(refused.subscribed).toEqual([]);

    // What a panel reads when the message comes: the list of the job's filter, left with none of its rows.
    const tag = unique("end");
    const listed: Promise<unknown[]>[] = [];
    const seen: BulkJob[] = [];
    theirs.on("message", (m: { channel: string; message: BulkJob }) => {
      if (m.channel !== channel) return;
      seen.push(m.message);
      listed.push(
        a.api
          .get(`/api/apps/${a.app.id}/conversations`, { tags: [tag], closed: false })
          .then((r) => ok<unknown[]>(r)),
      );
    });
    const heard = messages(reader, channel);
    await kit.conversations(30, tag);
    // Started by the app's token: no operator follows its progress, every panel still hears its end.
    const job = await kit.run(a.api, {
      action: "close",
      selection: { filter: { tags: [tag], closed: false } },
    });
    expect(job).toMatchObject({ status: "done", succeeded: 30 });
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(1);
    expect(seen[0]).toEqual(job);
    expect(await listed[0]).toEqual([]);
    await expect.poll(() => heard.length).toBe(1);
  });
});
