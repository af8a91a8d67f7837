import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import { startTestServer, type TestServer } from "../testing/server";
import { makeApp, makeToken } from "../testing/factories";
import { openSocket } from "../testing/socket";
import { CHANNEL_KINDS } from "./channels";

let s: TestServer;
const sockets: Socket[] = [];

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  for (const x of sockets) x.disconnect();
  await s.close();
});

async function subscribe(token: string, channels: string[]) {
  const socket = await openSocket(s.url, { token });
  sockets.push(socket);
  return (await socket.emitWithAck("subscribe", { channels })) as { subscribed: string[]; refused: string[] };
}

describe("a token's subscriptions need the read scope of what the channel carries", () => {
  const conversations = CHANNEL_KINDS.filter((k) => k.startsWith("conversation"));
  const users = ["user_presence_changed", "user_props_changed", "event"];

  it("conversations-read alone: the conversation channels, none of the users'", async () => {
    const { app } = await makeApp(s.db);
    const token = await makeToken(s.db, app.id, ["conversations-read"]);
    const ack = await subscribe(
      token,
      [...CHANNEL_KINDS].map((k) => `${k}.${app.id}`),
    );
    expect(ack.subscribed).toEqual(conversations.map((k) => `${k}.${app.id}`));
    expect(ack.refused).toEqual(users.map((k) => `${k}.${app.id}`));
  });

  it("user-read alone: the users' channels (user-scoped too), none of the conversations'", async () => {
    const { app } = await makeApp(s.db);
    const token = await makeToken(s.db, app.id, ["user-read"]);
    const ack = await subscribe(token, [
      `conversation.${app.id}`,
      `event.${app.id}`,
      `user_props_changed.${app.id}.7`,
    ]);
    expect(ack.subscribed).toEqual([`event.${app.id}`, `user_props_changed.${app.id}.7`]);
    expect(ack.refused).toEqual([`conversation.${app.id}`]);
  });

  it("a token with write scopes only listens to nothing", async () => {
    const { app } = await makeApp(s.db);
    const token = await makeToken(s.db, app.id, ["conversations-write", "user-write", "as-user"]);
    const ack = await subscribe(token, [`conversation_reply.${app.id}`, `user_presence_changed.${app.id}`]);
    expect(ack).toMatchObject({
      subscribed: [],
      refused: [`conversation_reply.${app.id}`, `user_presence_changed.${app.id}`],
    });
  });
});
