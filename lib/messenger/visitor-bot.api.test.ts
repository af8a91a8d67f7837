import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { makeTestApp } from "../testing/server-test";
import { ok } from "../users/testing";
import { clickButton, makeBot, visitorParts, visitorWrites } from "../bots/testing";
import { bootTestVisitor, warmUpVisitorApi, type TestVisitor } from "./testing";

type Json = Record<string, unknown>;

it.beforeAll(warmUpVisitorApi);

const newConversation = async (v: TestVisitor) =>
  ok<{ conversation: { id: number | string } | null }>(
    await v.api.postJson("/api/v2/messenger/bot_conversations", {}),
  ).conversation;

const listed = async (a: TestApp, q = "") =>
  ok<Json[]>(await a.api.get(`/api/apps/${a.app.id}/conversations${q ? `?${q}` : ""}`)).map((c) =>
    String(c.id),
  );

describe("messenger: a launcher bot", () => {
  it("opens the visitor's New conversation as a widget_bot, once until answered; a first message does not start it", async ({
    server: s,
  }) => {
    const a = await makeTestApp(s);
    const before = await bootTestVisitor(s, a);
    expect(before.boot.launcher_bot).toBe(false);
    expect(await newConversation(before)).toBeNull();

    await makeBot(a, { template: "lead_bot", start: { when: "launcher" } });
    const v = await bootTestVisitor(s, a);
    expect(v.boot.launcher_bot).toBe(true);
    const opened = await newConversation(v);
    const id = String(opened!.id);
    expect((await visitorParts(v, id)).map((p) => p.body)).toEqual([
      "Hi! Nobody from the team is around right now, but we will answer soon.",
      "Can we email you when we reply?",
    ]);
    const conv = ok<Json>(await a.api.get(`/api/v2/conversations/${id}`));
    expect(conv).toMatchObject({ assistant_type: "widget_bot", message: null });
    expect(await listed(a)).not.toContain(id);
    expect(await listed(a, "assistant_type=widget_bot")).toContain(id);
    // Asked again before answering: the same conversation, not another.
    expect(String((await newConversation(v))!.id)).toBe(id);

    await clickButton(v, id, "No thanks");
    expect(ok<Json>(await a.api.get(`/api/v2/conversations/${id}`))).toMatchObject({ assistant_type: null });
    expect(await listed(a)).toContain(id);
    // Answered: the next New conversation is a new one.
    expect(String((await newConversation(v))!.id)).not.toBe(id);

    // The launcher bot starts no conversation the visitor opens by writing.
    const wrote = await visitorWrites(s, a);
    expect(ok<Json>(await a.api.get(`/api/v2/conversations/${wrote.conversationId}`))).toMatchObject({
      assistant_type: null,
    });
  });

  it("follows its audience: a visitor outside it gets the plain composer", async ({ server: s }) => {
    const a = await makeTestApp(s);
    await makeBot(a, {
      template: "routing_bot",
      start: { when: "launcher" },
      audience: {
        type: "and",
        filters: [{ property_name: "$email", type: "str_eq", value: { value: "vip@example.test" } }],
      },
    });
    const v = await bootTestVisitor(s, a);
    expect(v.boot.launcher_bot).toBe(true);
    expect(await newConversation(v)).toBeNull();
    expect(ok<Json[]>(await v.api.get("/api/v2/messenger/conversations"))).toEqual([]);
  });
});
