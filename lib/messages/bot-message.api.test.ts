import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { makeTestApp } from "../testing/server-test";
import { errorOf, ok } from "../users/testing";
import { bootTestVisitor, warmUpVisitorApi } from "../messenger/testing";
import { clickButton, makeBot, visitorParts, visitorWrites } from "../bots/testing";
import { makeMessage, settled, statsOf } from "./testing";

type Json = Record<string, unknown>;

it.beforeAll(warmUpVisitorApi);

const listed = async (a: TestApp, q = "") =>
  ok<Json[]>(await a.api.get(`/api/apps/${a.app.id}/conversations${q ? `?${q}` : ""}`)).map((c) =>
    String(c.id),
  );

/** A message of kind bot, triggered by an event the visitor tracks. */
async function botMessage(a: TestApp, bot: number | string) {
  const event = `bot-${Math.random().toString(36).slice(2, 8)}`;
  const m = await makeMessage(a, { kind: "bot", content: { bot: String(bot) }, trigger: { event } });
  return { m, event };
}

describe("messages: a bot message", () => {
  it("opens a conversation the bot runs: out of the Inbox until it hands over, routed where the visitor chose", async ({
    server: s,
  }) => {
    const a = await makeTestApp(s);
    const sales = await s.db.channel.create({ data: { appId: a.app.id, name: "Sales" } });
    const bot = await makeBot(a, { template: "routing_bot", start: { when: "by_message" } });
    // A bot started only by messages answers no visitor who writes first.
    const first = await visitorWrites(s, a);
    expect(ok<Json>(await a.api.get(`/api/v2/conversations/${first.conversationId}`))).toMatchObject({
      assistant_type: null,
    });

    const { m, event } = await botMessage(a, bot.id);
    const v = await bootTestVisitor(s, a);
    ok(await v.api.postJson("/api/v2/messenger/track", { name: event }));
    const [send] = await settled(s, m.id, 1);
    expect(send).toMatchObject({ state: "sent" });
    const row = await s.db.messageSend.findUniqueOrThrow({ where: { id: send!.id } });
    const id = String(row.conversationId);
    expect(row.conversationId).not.toBeNull();

    const conv = ok<Json>(await a.api.get(`/api/v2/conversations/${id}`));
    expect(conv).toMatchObject({ type: "popup_chat", message: m.id, assistant_type: "routing_bot" });
    expect(await listed(a)).not.toContain(id);
    expect(await listed(a, "assistant_type=routing_bot")).toContain(id);
    // The visitor's messenger lists it, with the bot's question and its buttons.
    const mine = ok<Json[]>(await v.api.get("/api/v2/messenger/conversations")).map((c) => String(c.id));
    expect(mine).toContain(id);
    const parts = await visitorParts(v, id);
    expect(parts.map((p) => p.body)).toEqual(["Hi! What can we help you with?"]);
    expect(parts[0]!.actions?.map((b) => b.body)).toContain("Sales");

    await clickButton(v, id, "Sales");
    const after = ok<Json>(await a.api.get(`/api/v2/conversations/${id}`, { include_channel: "true" }));
    expect(after).toMatchObject({ assistant_type: null });
    expect(await listed(a, `channel=${sales.id}`)).toContain(id);
    expect((await statsOf(a, m.id)).sent).toMatchObject({ sent: 1 });
    const runs = ok<{ figures: Json }>(await a.api.get(`/api/v2/apps/${a.app.id}/bots/${bot.id}`));
    expect(runs.figures).toMatchObject({ started: 1, handed_over: 1 });
  });

  it("sends nothing while its bot is paused, and names only the app's own bots", async ({ server: s }) => {
    const a = await makeTestApp(s);
    const bot = await makeBot(a, { template: "lead_bot", start: { when: "by_message" } });
    const { m, event } = await botMessage(a, bot.id);
    ok(await a.api.postJson(`/api/v2/apps/${a.app.id}/bots/${bot.id}`, { status: "paused" }));
    const v = await bootTestVisitor(s, a);
    ok(await v.api.postJson("/api/v2/messenger/track", { name: event }));
    const [send] = await settled(s, m.id, 1);
    expect(send).toMatchObject({ state: "skipped", reason: "bot_off" });
    expect(ok<Json[]>(await v.api.get("/api/v2/messenger/conversations"))).toEqual([]);

    const other = await makeTestApp(s);
    const theirs = await makeBot(other, { template: "lead_bot" });
    const refused = errorOf(
      await a.api.postJson(`/api/apps/${a.app.id}/messages`, {
        name: "Someone else's bot",
        kind: "bot",
        content: { bot: String(theirs.id) },
        trigger: { event },
      }),
      400,
      "ValidationError",
    );
    expect(refused.error_fields?.["content.bot"]).toContain("not a bot of this app");
  });
});
