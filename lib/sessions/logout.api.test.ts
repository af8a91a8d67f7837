import { describe, expect } from "vitest";
import type { Socket } from "socket.io-client";
import type { TestServer } from "../testing/server";
import { it, type TestSockets } from "../testing/fixture";
import { makeApp, makeSession } from "../testing/factories";

let s: TestServer;
let sockets: TestSockets;

it.beforeAll(({ server, sockets: opened }) => {
  s = server;
  sockets = opened;
});

const openSocket = (cookie: string): Promise<Socket> => sockets.open({ cookie });

describe("POST /auth/logout", () => {
  it("disconnects the sockets of that session, and only those", async () => {
    const a = await makeApp(s.db);
    const mine = await makeSession(s.db, a.admin.id);
    const elsewhere = await makeSession(s.db, a.admin.id);
    const first = await openSocket(mine.cookie);
    const second = await openSocket(mine.cookie);
    const other = await openSocket(elsewhere.cookie);
    const dropped = Promise.all(
      [first, second].map((x) => new Promise<string>((resolve) => x.once("disconnect", resolve))),
    );

    const r = await s.call("/api/auth/logout", {
      method: "POST",
      headers: { cookie: mine.cookie, "x-csrf-token": mine.csrf },
    });
    expect(r.status).toBe(200);
    expect(await dropped).toEqual(["io server disconnect", "io server disconnect"]);
    // The other session's socket still works: it answers a subscription.
    const ack = (await other.emitWithAck("subscribe", { channels: [`conversation.${a.app.id}`] })) as {
      subscribed: string[];
    };
    expect(ack.subscribed).toEqual([`conversation.${a.app.id}`]);
    expect(other.connected).toBe(true);
    await expect(openSocket(mine.cookie)).rejects.toThrow(/AuthenticationFailed/);
  });
});
