import { describe, expect } from "vitest";
import { makeUser } from "../testing/factories";
import { errorOf, ok } from "../users/testing";
import { DEFAULTS } from "./dispatcher";
import { verifySignature, waitUntil, webhookSuite, type Hook } from "./testing";

const { it, w } = webhookSuite();

interface Delivery {
  id: number;
  message_id: string;
  webhook: number;
  type: string;
  status: string;
  attempts: number;
  response_code: number | null;
  last_error: string | null;
  next_attempt: number | null;
}

const deliveries = async (hook: Hook, params?: Record<string, unknown>) =>
  ok<Delivery[]>(await w.api.get(`${w.base()}/${hook.id}/deliveries`, params));
const settled = (hook: Hook, id: number) =>
  waitUntil(async () => (await deliveries(hook)).find((d) => d.id === id && d.status !== "pending"));

describe("delivery", () => {
  it("sends a signed test that the receiver can verify", async () => {
    const hook = await w.create(["user.event"]);
    const queued = ok<Delivery>(await w.api.postJson(`${w.base()}/${hook.id}/test`));
    // The answer is the delivery as read after the commit: a quick dispatcher may already have sent it.
    expect(queued).toMatchObject({ webhook: hook.id, type: "test" });
    expect(["pending", "succeeded"]).toContain(queued.status);
    const [got] = await w.rcv.waitFor(1, (r) => r.json.id === queued.message_id);
    expect(verifySignature(hook.secret!, got!)).toBe(true);
    expect(verifySignature("whsec_wrong", got!)).toBe(false);
    expect(got!.headers["x-webhook-id"]).toBe(queued.message_id);
    expect(got!.headers["content-type"]).toBe("application/json");
    expect(got!.headers["user-agent"]).toMatch(/Webhooks/);
    expect(Math.abs(Number(got!.headers["x-webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(30);
    expect(got!.json).toMatchObject({ type: "test", app: Number(w.app.app.id), data: { webhook: hook.id } });
    expect(typeof got!.json.created).toBe("number");
    const done = await settled(hook, queued.id);
    expect(done).toMatchObject({ status: "succeeded", attempts: 1, response_code: 200, next_attempt: null });
  });

  it("retries 500, 500, 200 with one X-Webhook-Id and one body", async () => {
    const hook = await w.create(["user.event"]);
    w.rcv.respond = (r) => (w.rcv.received.filter((x) => x.json.id === r.json.id).length <= 2 ? 500 : 200);
    const queued = ok<Delivery>(await w.api.postJson(`${w.base()}/${hook.id}/test`));
    const hits = await w.rcv.waitFor(3, (r) => r.json.id === queued.message_id);
    expect(new Set(hits.map((h) => h.headers["x-webhook-id"]))).toEqual(new Set([queued.message_id]));
    expect(new Set(hits.map((h) => h.body)).size).toBe(1);
    for (const h of hits) expect(verifySignature(hook.secret!, h)).toBe(true);
    const done = await settled(hook, queued.id);
    expect(done).toMatchObject({ status: "succeeded", attempts: 3, response_code: 200, last_error: null });
  });

  it("gives up after the retry window, keeping the last answer", async () => {
    const hook = await w.create(["user.event"]);
    w.rcv.respond = () => 503;
    // Wide enough that a first attempt made late on a loaded machine still leaves room for a retry.
    w.dispatcher.options.retryWindowMs = 2000;
    try {
      const queued = ok<Delivery>(await w.api.postJson(`${w.base()}/${hook.id}/test`));
      const done = await settled(hook, queued.id);
      expect(done).toMatchObject({
        status: "failed",
        response_code: 503,
        last_error: "HTTP 503",
        next_attempt: null,
      });
      expect(done.attempts).toBeGreaterThanOrEqual(2);
    } finally {
      w.dispatcher.options.retryWindowMs = DEFAULTS.retryWindowMs;
    }
  });

  it("delivers user replies with the clicked button's meta_data", async () => {
    const hook = await w.create(["conversation.started", "conversation.user_replied", "conversation.closed"]);
    const mine = (type: string) => (r: { json: { type: string; data: Record<string, unknown> } }) =>
      r.json.type === type && r.json.data.conversation === conv;
    const user = await makeUser(w.server.db, w.app.app.id);
    const started = ok<{ id: number }>(
      await w.api.postJson(`/api/users/${user.id}/startconversation`, { body: "Hi there" }),
    );
    const conv = started.id;
    const buttons = [
      { type: "quick_reply", body: "Track my order", meta_data: { intent: "track", order: 42 } },
    ];
    const offer = ok<{ id: number }>(
      await w.api.postJson(`/api/conversations/${conv}/reply`, {
        body: "How can we help?",
        actions: JSON.stringify(buttons),
      }),
    );
    ok(
      await w.api.postJson(`/api/conversations/${conv}/quickreply`, {
        part: offer.id,
        action: 0,
        random_id: 99,
      }),
    );
    ok(await w.api.postJson(`/api/conversations/${conv}/close`));
    const replies = await w.rcv.waitFor(2, mine("conversation.user_replied"));
    // Deliveries are sent in parallel: their order of arrival is not promised.
    const click = replies.find((r) => r.json.data.body === "Track my order");
    expect(replies.map((r) => r.json.data.body).sort()).toEqual(["Hi there", "Track my order"]);
    expect(click!.json.data).toMatchObject({ meta_data: { intent: "track", order: 42 }, random_id: 99 });
    await w.rcv.waitFor(1, (r) => r.json.type === "conversation.started" && r.json.data.id === conv);
    const [closed] = await w.rcv.waitFor(1, mine("conversation.closed"));
    expect(closed!.json.data).toMatchObject({ closed: true });
    // Operators' replies were not asked for.
    expect(w.rcv.received.filter((r) => r.json.type === "conversation.admin_replied")).toEqual([]);
    for (const r of w.rcv.received.filter(
      (x) => (x.json.data as { conversation?: number }).conversation === conv,
    ))
      expect(verifySignature(hook.secret!, r)).toBe(true);
  });

  it("delivers notes, assignments, reopenings, tags and new leads, signed, once each", async () => {
    const kinds = [
      "conversation.note_added",
      "conversation.assigned",
      "conversation.reopened",
      "conversation.tag_added",
      "conversation.tag_deleted",
      "user.lead_created",
    ];
    const hook = await w.create(kinds);
    const user = await makeUser(w.server.db, w.app.app.id);
    const conv = ok<{ id: number }>(
      await w.api.postJson(`/api/users/${user.id}/startconversation`, { body: "Hello" }),
    ).id;
    const c = `/api/conversations/${conv}`;
    const note = ok<{ id: number }>(
      await w.api.postJson(`${c}/reply`, { body: "Call back at 5", type: "note" }),
    );
    ok(await w.api.postJson(`${c}/assign`, { admin: String(w.app.admin.id) }));
    ok(await w.api.postJson(`${c}/close`));
    ok(await w.api.postJson(`${c}/reopen`));
    ok(await w.api.postJson(`${c}/tag`, { tag: "vip" }));
    ok(await w.api.del(`${c}/tag`, { tag: "vip" }));
    // A visitor without contact details becomes a lead when a name is set.
    const visitor = await w.server.db.user.create({ data: { appId: w.app.app.id } });
    ok(
      await w.api.postJson(`/api/users/${visitor.id}/props`, {
        operations: [{ op: "update_or_create", key: "$name", value: "Dee" }],
      }),
    );

    // Settled in the log: one delivery per kind, each answered 200 at its first attempt.
    const log = await waitUntil(async () => {
      const d = await deliveries(hook);
      return d.length === kinds.length && d.every((x) => x.status === "succeeded") ? d : undefined;
    });
    expect(log.map((d) => d.type).sort()).toEqual([...kinds].sort());
    for (const d of log) expect(d).toMatchObject({ attempts: 1, response_code: 200 });
    const got = new Map(
      log.map((d) => {
        const hits = w.rcv.received.filter((r) => r.headers["x-webhook-id"] === d.message_id);
        expect(hits, d.type).toHaveLength(1);
        expect(verifySignature(hook.secret!, hits[0]!), d.type).toBe(true);
        expect(hits[0]!.json).toMatchObject({ id: d.message_id, type: d.type, app: Number(w.app.app.id) });
        return [d.type, hits[0]!.json.data] as const;
      }),
    );
    expect(got.get("conversation.note_added")).toMatchObject({
      id: note.id,
      type: "note",
      body: "Call back at 5",
      conversation: conv,
    });
    expect(got.get("conversation.assigned")).toMatchObject({
      conversation: conv,
      assignee: { id: Number(w.app.admin.id) },
    });
    expect(got.get("conversation.reopened")).toMatchObject({ conversation: conv, closed: false });
    expect(got.get("conversation.tag_added")).toMatchObject({ conversation: conv, tag: "vip" });
    expect(got.get("conversation.tag_deleted")).toMatchObject({ conversation: conv, tag: "vip" });
    expect(got.get("user.lead_created")).toMatchObject({ id: Number(visitor.id), props: { $name: "Dee" } });
  });

  it("queues nothing for a paused subscription, but still sends it a test", async () => {
    const hook = await w.create(["user.event"], { active: false });
    const user = await makeUser(w.server.db, w.app.app.id);
    ok(await w.api.postJson(`/api/users/${user.id}/events`, { event: "Paused" }));
    const queued = ok<Delivery>(await w.api.postJson(`${w.base()}/${hook.id}/test`));
    await settled(hook, queued.id);
    expect((await deliveries(hook)).map((d) => d.type)).toEqual(["test"]);
  });

  it("pages the delivery log newest first and filters by status", async () => {
    const hook = await w.create(["user.event"]);
    const user = await makeUser(w.server.db, w.app.app.id);
    for (const e of ["One", "Two", "Three"])
      ok(await w.api.postJson(`/api/users/${user.id}/events`, { event: e }));
    await waitUntil(async () => (await deliveries(hook, { status: "succeeded" })).length === 3);
    const first = await w.api.get(`${w.base()}/${hook.id}/deliveries`, { paginate_count: 2 });
    const page = ok<Delivery[]>(first);
    expect(page).toHaveLength(2);
    expect(page[0]!.id).toBeGreaterThan(page[1]!.id);
    expect(page[0]!.type).toBe("user.event");
    const next = first.body.meta.next_before_position as number[];
    const rest = await deliveries(hook, { paginate_count: 2, paginate_position: JSON.stringify(next) });
    expect(rest).toHaveLength(1);
    expect(rest[0]!.id).toBeLessThan(page[1]!.id);
    expect(await deliveries(hook, { status: "failed" })).toEqual([]);
  });
});

describe("private targets", () => {
  it("are refused on create and update unless allowed", async () => {
    w.server.server.runtime.config.webhookAllowPrivate = false;
    for (const url of [
      w.rcv.url,
      "http://10.1.2.3/hook",
      "http://169.254.169.254/latest",
      "http://[::1]:8080/hook",
      `http://localhost:${w.rcv.port}/hook`,
    ]) {
      const meta = errorOf(
        await w.api.postJson(w.base(), { url, events: ["user.event"] }),
        400,
        "ValidationError",
      );
      expect(meta.error_fields?.url).toMatch(/private or reserved/);
    }
    w.server.server.runtime.config.webhookAllowPrivate = true;
    const hook = await w.create(["user.event"]);
    w.server.server.runtime.config.webhookAllowPrivate = false;
    errorOf(
      await w.api.postJson(`${w.base()}/${hook.id}`, { url: "http://127.0.0.2/" }),
      400,
      "ValidationError",
    );
  });

  it("are refused again at send time", async () => {
    const hook = await w.create(["user.event"]);
    w.server.server.runtime.config.webhookAllowPrivate = false;
    const before = w.rcv.received.length;
    const queued = ok<Delivery>(await w.api.postJson(`${w.base()}/${hook.id}/test`));
    const d = await waitUntil(async () =>
      (await deliveries(hook)).find((x) => x.id === queued.id && x.attempts > 0),
    );
    expect(d.last_error).toMatch(/URL refused: .*private or reserved/);
    expect(d.response_code).toBeNull();
    expect(w.rcv.received.length).toBe(before);
  });
});
