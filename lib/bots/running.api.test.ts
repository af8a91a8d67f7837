import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { makeTestApp } from "../testing/server-test";
import { ok } from "../users/testing";
import { warmUpVisitorApi } from "../messenger/testing";
import { hoursOpeningIn } from "../apps/testing";
import type { Bot } from "./schemas";
import { clickButton, makeBot, visitorParts, visitorSays, visitorWrites } from "./testing";

type Json = Record<string, unknown>;

it.beforeAll(warmUpVisitorApi);

const listed = async (a: TestApp, q = "") =>
  ok<Json[]>(await a.api.get(`/api/apps/${a.app.id}/conversations${q ? `?${q}` : ""}`)).map((c) =>
    String(c.id),
  );
const conversation = async (a: TestApp, id: string) =>
  ok<Json>(await a.api.get(`/api/v2/conversations/${id}`));
const botOf = async (a: TestApp, id: string | number) =>
  ok<Bot>(await a.api.get(`/api/v2/apps/${a.app.id}/bots/${id}`));

describe("bots: running", () => {
  it("the lead bot asks through buttons and fields, sets what the visitor answers, and hands over to the Inbox", async ({
    server: s,
  }) => {
    const a = await makeTestApp(s);
    const bot = await makeBot(a, { template: "lead_bot" });
    const { v, conversationId: id } = await visitorWrites(s, a, "Do you ship to Norway?");
    expect(await conversation(a, id)).toMatchObject({ assistant_type: "lead_bot" });
    expect(await listed(a)).not.toContain(id);
    expect(await listed(a, "assistant_type=lead_bot")).toContain(id);

    const first = await visitorParts(v, id);
    expect(first.map((p) => p.body)).toEqual([
      "Do you ship to Norway?",
      "Hi! Nobody from the team is around right now, but we will answer soon.",
      "Can we email you when we reply?",
    ]);
    expect(first[2]!.actions?.map((b) => b.body)).toEqual(["Yes, email me", "No thanks"]);

    await clickButton(v, id, "Yes, email me");
    const asked = (await visitorParts(v, id)).at(-1)!;
    expect(asked).toMatchObject({ body: "What is your email address?", ask: "email" });
    await visitorSays(v, id, "not an address");
    expect((await visitorParts(v, id)).at(-1)).toMatchObject({
      body: "That does not look like an email address. Could you check it?",
      ask: "email",
    });
    await visitorSays(v, id, "ann@example.test");
    expect((await visitorParts(v, id)).at(-1)).toMatchObject({
      body: "And which company are you with?",
      ask: "text",
    });
    expect(await listed(a)).not.toContain(id);
    await visitorSays(v, id, "Fjord Freight");

    const done = await conversation(a, id);
    expect(done).toMatchObject({ assistant_type: null, read: false });
    expect(await listed(a)).toContain(id);
    expect(await listed(a, "answered=false")).toContain(id);
    expect((await visitorParts(v, id)).at(-1)!.body).toBe(
      "Thanks! The team will see your message as soon as they are back.",
    );
    const user = ok<Json>(await a.api.get(`/api/v2/users/${v.boot.visitor.id}`, { props_custom: "true" }));
    expect(user).toMatchObject({
      props: { $email: "ann@example.test" },
      props_custom: { company: "Fjord Freight" },
    });
    const parts = ok<Json[]>(await a.api.get(`/api/v2/conversations/${id}/parts`));
    expect(parts.find((p) => p.type === "note")?.body).toBe(
      "The bot asked: $email: ann@example.test · company: Fjord Freight",
    );
    expect(parts.filter((p) => p.sent_via === "bot").length).toBeGreaterThan(4);
    expect((await botOf(a, bot.id)).figures).toMatchObject({ started: 1, handed_over: 1, running: 0 });
    // The reports wait for the team: the bot's messages are no first response.
    const facts = () => s.db.conversationFact.findUniqueOrThrow({ where: { conversationId: BigInt(id) } });
    expect((await facts()).answeredAt).toBeNull();
    ok(await a.api.postForm(`/api/conversations/${id}/reply`, { body: "Yes, we do" }));
    expect((await facts()).responderId).toBe(a.admin.id);
    // A rebuild from the parts agrees: the answer is the operator's, and theirs is the only reply counted.
    const kept = await facts();
    await s.db.$executeRaw`SELECT relay_rebuild_reports(${a.app.id})`;
    expect(await facts()).toEqual(kept);
    const replies = await s.db.conversationAdminReply.findMany({ where: { conversationId: BigInt(id) } });
    expect(replies.map((r) => [r.adminId, r.replies])).toEqual([[a.admin.id, 1]]);
  });

  it("an operator who answers first takes the conversation over; typing a button's label takes its branch", async ({
    server: s,
  }) => {
    const a = await makeTestApp(s);
    const bot = await makeBot(a, { template: "lead_bot" });
    const one = await visitorWrites(s, a);
    ok(
      await a.api.postForm(`/api/conversations/${one.conversationId}/reply`, { body: "I am here after all" }),
    );
    expect(await conversation(a, one.conversationId)).toMatchObject({ assistant_type: null });
    expect(await listed(a)).toContain(one.conversationId);
    await visitorSays(one.v, one.conversationId, "Great");
    expect((await visitorParts(one.v, one.conversationId)).at(-1)!.body).toBe("Great");

    const two = await visitorWrites(s, a);
    await visitorSays(two.v, two.conversationId, "no THANKS");
    expect((await visitorParts(two.v, two.conversationId)).slice(-2).map((p) => p.body)).toEqual([
      "No problem: come back to this page to see our answer.",
      "Thanks! The team will see your message as soon as they are back.",
    ]);
    expect((await botOf(a, bot.id)).figures).toMatchObject({ started: 2, taken_over: 1, handed_over: 1 });
  });

  it("the routing bot puts the conversation in the chosen channel and routes it there", async ({
    server: s,
  }) => {
    const a = await makeTestApp(s);
    const sales = await s.db.channel.create({ data: { appId: a.app.id, name: "Sales" } });
    ok(await a.api.postJson(`/api/v2/apps/${a.app.id}/routing`, { routing: "round_robin" }));
    await makeBot(a, { template: "routing_bot" });
    const { v, conversationId: id } = await visitorWrites(s, a);
    expect(await conversation(a, id)).toMatchObject({ assistant_type: "routing_bot", assignee: null });
    await clickButton(v, id, "Sales");
    const c = ok<Json>(await a.api.get(`/api/v2/conversations/${id}`, { include_channel: "true" }));
    expect(c).toMatchObject({ assistant_type: null });
    expect(await listed(a, `channel=${sales.id}`)).toContain(id);
  });

  it("starts only when its rule and audience hold", async ({ server: s }) => {
    const a = await makeTestApp(s);
    const { hours } = hoursOpeningIn(3_600_000);
    ok(await a.api.postJson(`/api/v2/apps/${a.app.id}/office_hours`, { office_hours: hours }));
    const steps = [{ type: "close", body: "Closed for today." }];
    await makeBot(a, { name: "In hours", kind: "routing_bot", start: { when: "office_hours" }, steps });
    await makeBot(a, {
      name: "Only VIPs",
      kind: "lead_bot",
      start: { when: "always" },
      audience: {
        type: "and",
        filters: [{ property_name: "$email", type: "str_eq", value: { value: "vip@example.test" } }],
      },
      steps,
    });
    const closed = await visitorWrites(s, a);
    expect(await conversation(a, closed.conversationId)).toMatchObject({
      assistant_type: null,
      closed: false,
    });
    const late = await makeBot(a, {
      name: "After hours",
      kind: "lead_bot",
      start: { when: "outside_office_hours" },
      steps,
    });
    const after = await visitorWrites(s, a);
    expect(await conversation(a, after.conversationId)).toMatchObject({ assistant_type: null, closed: true });
    expect((await visitorParts(after.v, after.conversationId)).at(-1)!.body).toBe("Closed for today.");
    expect((await botOf(a, late.id)).figures).toMatchObject({ started: 1, closed: 1 });
  });
});
