import { describe, expect } from "vitest";
import type { Socket } from "socket.io-client";
import { it } from "../testing/fixture";

/**
 * Hostile socket.io payloads: every `subscribe` is answered with `{subscribed, refused}` (an `error` naming the
 * caller's mistake, never InternalError), and the socket keeps working afterwards.
 */
let socket: Socket;

// One socket for the whole file: each payload is sent to a socket that has had all the ones before.
it.beforeAll(async ({ app, sockets }) => {
  socket = await sockets.open({ token: app.token });
});

interface Ack {
  subscribed: string[];
  refused: string[];
  error?: string;
}

describe("socket.io subscribe payloads", () => {
  // Each payload is made of the app's own conversation channel.
  const payloads: [string, (own: string) => unknown][] = [
    ["null", () => null],
    ["a string", () => "conversation.1"],
    ["a number", () => 42],
    ["channels as a string", (own) => ({ channels: own })],
    ["channels of odd types", (own) => ({ channels: [1, null, {}, [own], true] })],
    ["a huge channel name", () => ({ channels: ["x".repeat(100_000)] })],
    ["odd unicode", () => ({ channels: ["conversation.\u0661", "\ud800", "conversation.1\u0000"] })],
    ["10,000 channels", () => ({ channels: Array.from({ length: 10_000 }, (_, i) => `event.${i}`) })],
    ["after -1", (own) => ({ channels: [own], after: -1 })],
    ["after 1.5", (own) => ({ channels: [own], after: 1.5 })],
    ["after NaN", (own) => ({ channels: [own], after: Number.NaN })],
    ["after 1e20", (own) => ({ channels: [own], after: 1e20 })],
    ["after 2^63 as a string", (own) => ({ channels: [own], after: "9223372036854775808" })],
    ["after 19 nines", (own) => ({ channels: [own], after: "9999999999999999999" })],
    ["after an object", (own) => ({ channels: [own], after: { $gt: 0 } })],
    ["after a word", (own) => ({ channels: [own], after: "abc" })],
  ];
  it.for(payloads)("answers %s without an internal error", async ([what, make], { app: a }) => {
    const own = `conversation.${a.app.id}`;
    const ack = (await socket.timeout(10_000).emitWithAck("subscribe", make(own))) as Ack;
    expect(Array.isArray(ack.subscribed)).toBe(true);
    expect(Array.isArray(ack.refused)).toBe(true);
    expect(ack.error).not.toBe("InternalError");
    // A position that is not an event ID is the caller's mistake, said so, and subscribes nothing.
    if (/^after (1\.5|1e20|2\^63|19 nines|an object|a word)/.test(what)) {
      expect(ack).toMatchObject({ subscribed: [], refused: [own], error: "ValidationError" });
    }
    const still = (await socket.timeout(10_000).emitWithAck("subscribe", { channels: [own] })) as Ack;
    expect(still.subscribed).toEqual([own]);
  });

  it("survives junk unsubscribes and unknown events", async ({ app: a }) => {
    const own = `conversation.${a.app.id}`;
    for (const junk of [null, 5, "x", { channels: [{}, 1] }, { channels: "event.1" }]) {
      const ack = (await socket.timeout(10_000).emitWithAck("unsubscribe", junk)) as {
        unsubscribed: unknown;
      };
      expect(Array.isArray(ack.unsubscribed)).toBe(true);
    }
    socket.emit("nonsense", { a: 1 });
    socket.emit("subscribe");
    const still = (await socket.timeout(10_000).emitWithAck("subscribe", { channels: [own] })) as Ack;
    expect(still.subscribed).toEqual([own]);
  });
});
