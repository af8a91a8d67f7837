import { describe, expect } from "vitest";
import { it, type TestSockets } from "../testing/fixture";
import { makeApp, makeToken } from "../testing/factories";
import { CHANNEL_KINDS } from "../contract/socket";

async function subscribe(sockets: TestSockets, token: string, channels: string[]) {
  const socket = await sockets.open({ token });
  return (await socket.emitWithAck("subscribe", { channels })) as { subscribed: string[]; refused: string[] };
}

describe("a token's subscriptions need the read scope of what the channel carries", () => {
  const conversations = CHANNEL_KINDS.filter(
    (k) => k.startsWith("conversation") || k === "admin_availability",
  );
  const users = ["user_presence_changed", "user_props_changed", "event"];

  it("conversations-read alone: the conversation channels, none of the users'", async ({
    server: s,
    sockets,
  }) => {
    const { app } = await makeApp(s.db);
    const token = await makeToken(s.db, app.id, ["conversations-read"]);
    const ack = await subscribe(
      sockets,
      token,
      [...CHANNEL_KINDS].map((k) => `${k}.${app.id}`),
    );
    expect(ack.subscribed).toEqual(conversations.map((k) => `${k}.${app.id}`));
    // An operator's notifications and bulk jobs are nobody else's, a token's least of all.
    expect(ack.refused).toEqual([...users, "notification", "bulk_job"].map((k) => `${k}.${app.id}`));
  });

  it("user-read alone: the users' channels (user-scoped too), none of the conversations'", async ({
    server: s,
    sockets,
  }) => {
    const { app } = await makeApp(s.db);
    const token = await makeToken(s.db, app.id, ["user-read"]);
    const ack = await subscribe(sockets, token, [
      `conversation.${app.id}`,
      `event.${app.id}`,
      `user_props_changed.${app.id}.7`,
    ]);
    expect(ack.subscribed).toEqual([`event.${app.id}`, `user_props_changed.${app.id}.7`]);
    expect(ack.refused).toEqual([`conversation.${app.id}`]);
  });

  it("a token with write scopes only listens to nothing", async ({ server: s, sockets }) => {
    const { app } = await makeApp(s.db);
    const token = await makeToken(s.db, app.id, ["conversations-write", "user-write", "as-user"]);
    const ack = await subscribe(sockets, token, [
      `conversation_reply.${app.id}`,
      `user_presence_changed.${app.id}`,
    ]);
    expect(ack).toMatchObject({
      subscribed: [],
      refused: [`conversation_reply.${app.id}`, `user_presence_changed.${app.id}`],
    });
  });
});
