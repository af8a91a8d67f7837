import { describe, expect } from "vitest";
import type { Socket } from "socket.io-client";
import type { TestServer } from "../testing/server";
import { it, type TestApp, type TestSockets } from "../testing/fixture";
import { makeAdmin, makeApp, makeToken, makeUser, unique } from "../testing/factories";
import { client } from "../testing/http";
import { errorOf, ok } from "../users/testing";
import { MAX_BULK_CONVERSATIONS, type BulkJob } from "./schemas";
import { bulkKit, ids } from "./testing";

// Around the bulk actions (bulk.api.test.ts): bad input, the size limit, the count, scopes, and the progress socket.
let s: TestServer;
let a: TestApp;
let other: TestApp;
let sockets: TestSockets;
let kit: ReturnType<typeof bulkKit>;

it.beforeAll(({ server, app, other: o, sockets: so }) => {
  s = server;
  a = app;
  other = o;
  sockets = so;
  kit = bulkKit(s, a);
});

describe("POST /apps/{id}/conversations/bulk: refusals and counts", () => {
  it("answers bad input in the envelope", async () => {
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

  it(`refuses a filter matching over ${MAX_BULK_CONVERSATIONS} conversations, whole`, async () => {
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

  it("counts what a filter matches, for the offer to select them all", async () => {
    const tag = unique("count");
    await kit.conversations(3, tag);
    const count = (q: Record<string, unknown>) => a.api.get(`${kit.bulkPath()}_count`, q);
    expect(ok(await count({ tags: [tag] }))).toEqual({ count: 3, over_limit: false });
    expect(ok(await count({ tags: [tag], closed: true }))).toEqual({ count: 0, over_limit: false });
    errorOf(await count({ assistant_type: "robot" }), 400, "ValidationError");
    errorOf(await a.api.get(`${kit.bulkPath(other)}_count`), 403, "PermissionDenied");
  });

  it("needs conversations-write, and an app of the caller", async () => {
    const reader = client(s, await makeToken(s.db, a.app.id, ["conversations-read"]));
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
  it("reaches the operator who started it, up to the end; no one else may listen", async () => {
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
