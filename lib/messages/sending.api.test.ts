import { describe, expect, vi } from "vitest";
import { it } from "../testing/fixture";
import { makeUser, unique } from "../testing/factories";
import { errorOf, ok } from "../users/testing";
import { bootTestVisitor, warmUpVisitorApi } from "../messenger/testing";
import type { z } from "zod";
import type { VisitorMessage, visitorStartedSchema } from "../messenger/visitor-schemas";
import { consumed, dueNow, makeMessage, messagesOf, sendsOf, settled, statsOf, track } from "./testing";

type VisitorStarted = z.infer<typeof visitorStartedSchema>;

it.beforeAll(warmUpVisitorApi);

describe("messages: sending", () => {
  it("sends a chat message after its trigger; the visitor's answer starts a popup_chat conversation; statistics count it", async ({
    server: s,
    app: a,
  }) => {
    const m = await makeMessage(a, { trigger: { event: "$page_view", url: "https://shop.test/pricing*" } });
    const v = await bootTestVisitor(s, a);
    const userId = BigInt(v.boot.visitor.id);
    ok(
      await v.api.postJson("/api/v2/messenger/track", {
        name: "$page_view",
        params: { url: "https://shop.test/about" },
      }),
    );
    ok(
      await v.api.postJson("/api/v2/messenger/track", {
        name: "$page_view",
        params: { url: "https://shop.test/pricing?plan=pro" },
      }),
    );
    const [send] = await settled(s, m.id, 1);
    expect(send).toMatchObject({ state: "sent", userId, control: false });
    const shown = ok<VisitorMessage[]>(await v.api.get("/api/v2/messenger/messages"));
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      send: Number(send!.id),
      message: m.id,
      kind: "chat",
      body: "Hi! Can I help?",
      sender: { id: Number(a.admin.id) },
    });
    ok(await v.api.postJson(`/api/v2/messenger/messages/${send!.id}/read`));
    ok(await v.api.postJson(`/api/v2/messenger/messages/${send!.id}/read`));
    const started = ok<VisitorStarted>(
      await v.api.postJson(`/api/v2/messenger/messages/${send!.id}/reply`, { body: "Yes, about pricing" }),
    );
    const conv = ok<{ type: string; message: unknown; parts_count: number }>(
      await a.api.get(`/api/conversations/${started.conversation.id}`),
    );
    expect(conv).toMatchObject({ type: "popup_chat", message: m.id, parts_count: 2 });
    errorOf(
      await v.api.postJson(`/api/v2/messenger/messages/${send!.id}/reply`, { body: "again" }),
      400,
      "ValidationError",
    );
    expect(ok<VisitorMessage[]>(await v.api.get("/api/v2/messenger/messages"))).toEqual([]);
    const stats = await statsOf(a, m.id);
    expect(stats.sent).toMatchObject({ sent: 1, read: 1, replied: 1, clicked: 0 });
    expect(stats.days).toHaveLength(1);
    const events = ok<{ type: { name: string }; props: { message?: number } }[]>(
      await a.api.get(`/api/users/${userId}/events`),
    );
    expect(
      events
        .filter((e) => e.props.message === m.id)
        .map((e) => e.type.name)
        .sort(),
    ).toEqual(["$message_read", "$message_replied", "$message_sent"]);
  });

  it("sends once per user, checks the audience when the timeout ends, and holds back the control group", async ({
    server: s,
    app: a,
  }) => {
    const ev = unique("viewed");
    const m = await makeMessage(a, {
      trigger: { event: ev },
      // Held for the test to change a user first; then made due (below).
      timeout: 3600,
      audience: { type: "and", filters: [{ property_name: "$email", type: "known", value: {} }] },
      control_percent: 50,
    });
    const users = await Promise.all(
      Array.from({ length: 12 }, (_, i) => makeUser(s.db, a.app.id, { email: `m${i}@shop.test` })),
    );
    const leaving = await makeUser(s.db, a.app.id, { email: "gone@shop.test" });
    for (const u of [...users, leaving]) await track(a, u.id, ev);
    await track(a, users[0]!.id, ev);
    // The audience no longer holds for this one when its timeout ends.
    ok(
      await a.api.postJson(`/api/users/${leaving.id}/props`, {
        operations: [{ op: "delete", key: "$email" }],
      }),
    );
    await consumed(s);
    await dueNow(s, m.id);
    const rows = await settled(s, m.id, 13);
    const skipped = rows.filter((r) => r.state === "skipped");
    expect(skipped.map((r) => [r.userId, r.reason])).toEqual([[leaving.id, "audience"]]);
    const held = rows.filter((r) => r.state === "held");
    const sent = rows.filter((r) => r.state === "sent");
    expect(held.length + sent.length).toBe(12);
    expect(held.every((r) => r.control)).toBe(true);
    expect(sent.every((r) => !r.control)).toBe(true);
    const stats = await statsOf(a, m.id);
    expect(stats.sent.sent).toBe(sent.length);
    expect(stats.control.sent).toBe(held.length);
  });

  it("counts a goal for message and control alike, gives the lift, and stops a send the goal came before", async ({
    server: s,
    app: a,
  }) => {
    const ev = unique("viewed");
    const cart = unique("cart");
    const m = await makeMessage(a, {
      trigger: { event: ev },
      control_percent: 50,
      goal: { event: "paid", within_hours: 1 },
    });
    const users = await Promise.all(Array.from({ length: 16 }, () => makeUser(s.db, a.app.id)));
    for (const u of users) await track(a, u.id, ev);
    const rows = await settled(s, m.id, 16);
    const sent = rows.filter((r) => r.state === "sent");
    const held = rows.filter((r) => r.state === "held");
    expect(sent.length).toBeGreaterThan(0);
    expect(held.length).toBeGreaterThan(0);
    await track(a, sent[0]!.userId, "paid");
    await track(a, sent[0]!.userId, "paid");
    await track(a, held[0]!.userId, "paid");
    await vi.waitFor(async () => {
      const st = await statsOf(a, m.id);
      expect([st.sent.goal, st.control.goal]).toEqual([1, 1]);
      const lift = Math.round((1 / sent.length - 1 / held.length) * 10_000) / 100;
      expect(st.goal_lift).toBe(lift);
    });

    const stopping = await makeMessage(a, {
      trigger: { event: cart },
      // Long enough that the goal surely comes first.
      timeout: 3600,
      goal: { event: "signed_up", within_hours: 1, stop: true },
    });
    const u = await makeUser(s.db, a.app.id);
    await track(a, u.id, cart);
    await vi.waitFor(async () => expect(await sendsOf(s, stopping.id)).toHaveLength(1));
    await track(a, u.id, "signed_up");
    const [stopped] = await settled(s, stopping.id, 1);
    expect(stopped).toMatchObject({ state: "skipped", reason: "goal" });
  });

  it("chains a message on another's event, and sends a user at most one message per interval", async ({
    server: s,
    app: a,
  }) => {
    const cart = unique("cart");
    const first = await makeMessage(a, { trigger: { event: cart } });
    const next = await makeMessage(a, { trigger: { event: "$message_read", message: first.id }, timeout: 1 });
    // On the same trigger, held until the first is sent: then the per-user interval holds it back.
    const rival = await makeMessage(a, { trigger: { event: cart }, timeout: 3600 });
    const v = await bootTestVisitor(s, a);
    const userId = BigInt(v.boot.visitor.id);
    await track(a, userId, cart);
    const [a1] = await settled(s, first.id, 1);
    await dueNow(s, rival.id);
    const [r1] = await settled(s, rival.id, 1);
    expect(a1).toMatchObject({ state: "sent" });
    expect(r1).toMatchObject({ state: "skipped", reason: "rate_limit" });
    await s.db.app.update({ where: { id: a.app.id }, data: { messageIntervalSeconds: 0 } });
    ok(await v.api.postJson(`/api/v2/messenger/messages/${a1!.id}/read`));
    const [chained] = await settled(s, next.id, 1);
    expect(chained).toMatchObject({ state: "sent", userId });
  });

  it("waits for the schedule's window, and a paused message sends nothing", async ({ server: s, app: a }) => {
    const ev = unique("viewed");
    const cart = unique("cart");
    const now = new Date();
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    const from = hhmm(new Date(now.getTime() + 3 * 3600_000));
    const to = hhmm(new Date(now.getTime() + 4 * 3600_000));
    const m = await makeMessage(a, { trigger: { event: ev }, schedule: { window: { from, to } } });
    const u = await makeUser(s.db, a.app.id);
    await track(a, u.id, ev);
    await vi.waitFor(async () => {
      const [row] = await sendsOf(s, m.id);
      expect(row?.state).toBe("scheduled");
      expect(row!.dueAt.getTime()).toBeGreaterThan(now.getTime() + 2.9 * 3600_000);
    });

    const paused = await makeMessage(a, { status: "paused", trigger: { event: cart } });
    await track(a, u.id, cart);
    const active = await makeMessage(a, { trigger: { event: cart } });
    ok(await a.api.postJson(`${messagesOf(a)}/${active.id}`, { status: "paused" }));
    await track(a, (await makeUser(s.db, a.app.id)).id, cart);
    // Neither the paused one nor the one paused before its trigger sends, once the consumer has read both events.
    await consumed(s);
    expect(await sendsOf(s, m.id)).toHaveLength(1);
    expect(await sendsOf(s, paused.id)).toEqual([]);
    expect(await sendsOf(s, active.id)).toEqual([]);
  });
});

describe("messages: email", () => {
  it("queues an email message to a subscribed address, and skips a user without one", async ({
    server: s,
    app: a,
  }) => {
    const ev = unique("signed_up");
    const m = await makeMessage(a, {
      kind: "email",
      content: { subject: "Welcome aboard", body: "Here is how to start." },
      trigger: { event: ev },
    });
    const reachable = await makeUser(s.db, a.app.id, { email: `${unique("w")}@shop.test` });
    const silent = await makeUser(s.db, a.app.id);
    await track(a, reachable.id, ev);
    await track(a, silent.id, ev);
    const rows = await settled(s, m.id, 2);
    expect(rows.map((r) => [r.userId, r.state, r.reason])).toEqual([
      [reachable.id, "sent", null],
      [silent.id, "skipped", "no_email"],
    ]);
    const email = await s.db.email.findFirstOrThrow({ where: { userId: reachable.id, kind: "message" } });
    expect(email).toMatchObject({ subject: "Welcome aboard", toAddress: reachable.email });
    expect(email.text).toContain("Here is how to start.");
    expect((await statsOf(a, m.id)).sent.sent).toBe(1);

    // Its unsubscribe link names the send: following it unsubscribes and counts for the message, once.
    const link = /\/email\/unsubscribe\?t=([^&\s]+)&s=(\d+)/.exec(email.text);
    expect(link?.[2]).toBe(String(rows[0]!.id));
    const [, t, sendId] = link!;
    const unsubscribe = (params: Record<string, string>) =>
      s.call(`/api/email/unsubscribe?${new URLSearchParams(params).toString()}`, { method: "POST" });
    // A send that is not this person's counts nothing, and still unsubscribes.
    const other = await unsubscribe({ t: t!, s: String(rows[1]!.id) });
    expect(other.body.data).toEqual({ email_status: "unsubscribed", changed: true });
    expect((await statsOf(a, m.id)).sent.unsubscribed).toBe(0);
    for (let i = 0; i < 2; i++) ok(await unsubscribe({ t: t!, s: sendId! }));
    expect((await statsOf(a, m.id)).sent.unsubscribed).toBe(1);
    const events = await s.db.event.findMany({
      where: { userId: reachable.id, type: { name: "$message_unsubscribed" } },
    });
    expect(events.map((e) => e.props)).toEqual([{ message: Number(m.id), send: Number(sendId) }]);
    expect(errorOf(await unsubscribe({ t: t!, s: "x" }), 400, "ValidationError").error_fields).toHaveProperty(
      "s",
    );
  });
});
