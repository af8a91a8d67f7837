import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { makeAdmin } from "../testing/factories";
import { errorOf, ok } from "../users/testing";
import type { Message } from "./schemas";
import { makeMessage, messagesOf } from "./testing";

describe("messages: the API", () => {
  it("creates, reads, lists, changes, pauses, duplicates and archives a message", async ({ app: a }) => {
    const m = await makeMessage(a, { timeout: 5, goal: { event: "paid", within_hours: 24 } });
    expect(m).toMatchObject({
      kind: "chat",
      status: "active",
      timeout: 5,
      frequency: { type: "once" },
      control_percent: 0,
      goal: { event: "paid", within_hours: 24 },
      figures: { sent: 0, read: 0, replied: 0, goal: 0 },
    });
    expect(ok<Message>(await a.api.get(`${messagesOf(a)}/${m.id}`)).name).toBe(m.name);
    const paused = ok<Message>(
      await a.api.postJson(`${messagesOf(a)}/${m.id}`, { status: "paused", timeout: 9 }),
    );
    expect(paused).toMatchObject({ status: "paused", timeout: 9, name: m.name });
    const copy = ok<Message>(await a.api.postJson(`${messagesOf(a)}/${m.id}/duplicate`));
    expect(copy).toMatchObject({ name: `${m.name} (copy)`, status: "paused", timeout: 9 });
    ok(await a.api.postJson(`${messagesOf(a)}/${copy.id}`, { status: "archived" }));
    const listed = ok<Message[]>(await a.api.get(messagesOf(a))).map((x) => x.id);
    expect(listed).toContain(m.id);
    expect(listed).not.toContain(copy.id);
    expect(ok<Message[]>(await a.api.get(`${messagesOf(a)}?status=archived`)).map((x) => x.id)).toContain(
      copy.id,
    );
  });

  it("refuses bad content, an operator of another app, bad audiences and triggers, in the envelope", async ({
    server: s,
    app: a,
    other,
  }) => {
    const bad = async (over: Record<string, unknown>, field: string) => {
      const r = errorOf(
        await a.api.postJson(messagesOf(a), { name: "x", kind: "chat", ...over }),
        400,
        "ValidationError",
      );
      expect(JSON.stringify(r)).toContain(field);
    };
    const content = { sender: Number(a.admin.id), body: "Hello" };
    await bad({ content: { sender: Number(a.admin.id), body: "" }, trigger: { event: "e" } }, "content.body");
    await bad(
      { content: { ...content, sender: Number(other.admin.id) }, trigger: { event: "e" } },
      "content.sender",
    );
    await bad({ kind: "popup", content, trigger: { event: "e" } }, "content");
    await bad({ content, trigger: {} }, "trigger");
    await bad({ content, trigger: { event: "e", message: 1 } }, "trigger.message");
    await bad(
      {
        content,
        trigger: { event: "e" },
        audience: { type: "and", filters: [{ property_name: "$email", type: "nope", value: {} }] },
      },
      "audience",
    );
    await bad({ content, trigger: { event: "e" }, control_percent: 80 }, "control_percent");
    const outsider = await makeAdmin(s.db);
    await bad(
      { content: { ...content, sender: Number(outsider.id) }, trigger: { event: "e" } },
      "content.sender",
    );
  });

  it("refuses a message that triggers itself within 30 seconds, naming the loop, unless confirmed", async ({
    app: a,
  }) => {
    const first = await makeMessage(a, { name: "First" });
    const second = await makeMessage(a, {
      name: "Second",
      trigger: { event: "$message_read", message: first.id },
      timeout: 10,
    });
    // First triggered by Second's sends: First → Second → First within 10 s.
    const r = errorOf(
      await a.api.postJson(`${messagesOf(a)}/${first.id}`, {
        trigger: { event: "$message_sent", message: second.id },
      }),
      400,
      "ValidationError",
    );
    expect(r.error_fields?.trigger).toContain(
      `"First" (${first.id}) → "Second" (${second.id}) → "First" (${first.id})`,
    );
    // A timeout that takes the chain past 30 s is no loop.
    ok(
      await a.api.postJson(`${messagesOf(a)}/${first.id}`, {
        trigger: { event: "$message_sent", message: second.id },
        timeout: 25,
      }),
    );
    errorOf(
      await a.api.postJson(messagesOf(a), {
        name: "Echo",
        kind: "chat",
        content: { sender: Number(a.admin.id), body: "x" },
        trigger: { event: "$message_sent" },
      }),
      400,
      "ValidationError",
    );
    ok(
      await a.api.postJson(messagesOf(a), {
        name: "Echo",
        kind: "chat",
        content: { sender: Number(a.admin.id), body: "x" },
        trigger: { event: "$message_sent" },
        confirm_loop: true,
        status: "archived",
      }),
    );
  });
});
