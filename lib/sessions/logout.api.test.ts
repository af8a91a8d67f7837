import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { makeApp, makeSession } from "../testing/factories";

describe("POST /auth/logout", () => {
  it("disconnects the sockets of that session, and only those", async ({ server: s, sockets }) => {
    const a = await makeApp(s.db);
    const mine = await makeSession(s.db, a.admin.id);
    const elsewhere = await makeSession(s.db, a.admin.id);
    const first = await sockets.open({ cookie: mine.cookie });
    const second = await sockets.open({ cookie: mine.cookie });
    const other = await sockets.open({ cookie: elsewhere.cookie });
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
    await expect(sockets.open({ cookie: mine.cookie })).rejects.toThrow(/AuthenticationFailed/);
  });
});
