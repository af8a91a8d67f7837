import { afterAll, describe, expect } from "vitest";
import { io as connect, type Socket } from "socket.io-client";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";

/**
 * Hostile socket.io payloads: every `subscribe` is answered with `{subscribed, refused}` (an `error` naming the
 * caller's mistake, never InternalError), and the socket keeps working afterwards.
 */
let s: TestServer;
let a: TestApp;
let socket: Socket;

it.beforeAll(async ({ server, app }) => {
  s = server;
  a = app;
  socket = connect(s.url, {
    path: "/socket.io",
    transports: ["websocket"],
    auth: { token: a.token },
    reconnection: false,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
});
afterAll(() => {
  socket.disconnect();
});

interface Ack {
  subscribed: string[];
  refused: string[];
  error?: string;
}

describe("socket.io subscribe payloads", () => {
  const own = () => `conversation.${a.app.id}`;
  const payloads: [string, () => unknown][] = [
    ["null", () => null],
    ["a string", () => "conversation.1"],
    ["a number", () => 42],
    ["channels as a string", () => ({ channels: own() })],
    ["channels of odd types", () => ({ channels: [1, null, {}, [own()], true] })],
    ["a huge channel name", () => ({ channels: ["x".repeat(100_000)] })],
    ["odd unicode", () => ({ channels: ["conversation.\u0661", "\ud800", "conversation.1\u0000"] })],
    ["10,000 channels", () => ({ channels: Array.from({ length: 10_000 }, (_, i) => `event.${i}`) })],
    ["after -1", () => ({ channels: [own()], after: -1 })],
    ["after 1.5", () => ({ channels: [own()], after: 1.5 })],
    ["after NaN", () => ({ channels: [own()], after: Number.NaN })],
    ["after 1e20", () => ({ channels: [own()], after: 1e20 })],
    ["after 2^63 as a string", () => ({ channels: [own()], after: "9223372036854775808" })],
    ["after 19 nines", () => ({ channels: [own()], after: "9999999999999999999" })],
    ["after an object", () => ({ channels: [own()], after: { $gt: 0 } })],
    ["after a word", () => ({ channels: [own()], after: "abc" })],
  ];
  it.each(payloads)("answers %s without an internal error", async (_what, make) => {
    const ack = (await socket.timeout(10_000).emitWithAck("subscribe", make())) as Ack;
    expect(Array.isArray(ack.subscribed)).toBe(true);
    expect(Array.isArray(ack.refused)).toBe(true);
    expect(ack.error).not.toBe("InternalError");
    // A position that is not an event ID is the caller's mistake, said so, and subscribes nothing.
    if (/^after (1\.5|1e20|2\^63|19 nines|an object|a word)/.test(_what)) {
      expect(ack).toMatchObject({ subscribed: [], refused: [own()], error: "ValidationError" });
    }
    const still = (await socket.timeout(10_000).emitWithAck("subscribe", { channels: [own()] })) as Ack;
    expect(still.subscribed).toEqual([own()]);
  });

  it("survives junk unsubscribes and unknown events", async () => {
    for (const junk of [null, 5, "x", { channels: [{}, 1] }, { channels: "event.1" }]) {
      const ack = (await socket.timeout(10_000).emitWithAck("unsubscribe", junk)) as {
        unsubscribed: unknown;
      };
      expect(Array.isArray(ack.unsubscribed)).toBe(true);
    }
    socket.emit("nonsense", { a: 1 });
    socket.emit("subscribe");
    const still = (await socket.timeout(10_000).emitWithAck("subscribe", { channels: [own()] })) as Ack;
    expect(still.subscribed).toEqual([own()]);
  });
});
