import { describe, expect } from "vitest";
import { QueryClient } from "@tanstack/react-query";
import { it } from "../testing/fixture";
import { ok, startConversation } from "../conversations/testing";
import { purgeEventLog } from "../eventlog/retention";
import { handleSubscribeAck } from "../client/use-socket";
import { listen, subscribe, until } from "./testing";

/** Resuming a subscription: replays from a position, the positions the answers give, and gaps left by retention. */
describe("socket.io delivery", () => {
  it("replays all 20 replies made while a client was away, in order, exactly once, then goes on live", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const c = a.api;
    const conv = await startConversation(c, s.db, a.app.id);
    const channel = `conversation_reply.${a.app.id}`;
    const first = await listen(sockets, { token: a.token });
    await subscribe(first.socket, [channel]);
    ok(await c.postForm(`/api/conversations/${conv.id}/reply`, { body: "before", random_id: "1" }));
    await until(() => first.got.some((m) => m.message.body === "before"), "the first reply");
    const lastSeen = first.got[first.got.length - 1]!.id!;
    first.socket.disconnect();
    for (let i = 0; i < 20; i++) {
      ok(
        await c.postForm(`/api/conversations/${conv.id}/reply`, {
          body: `away ${i}`,
          random_id: String(100 + i),
        }),
      );
    }
    const again = await listen(sockets, { token: a.token });
    // Live replies race the replay: both must come out once each, in id order.
    const racing = (async () => {
      for (let i = 0; i < 5; i++)
        ok(await c.postForm(`/api/conversations/${conv.id}/reply`, { body: `live ${i}` }));
    })();
    await subscribe(again.socket, [channel], lastSeen);
    await racing;
    await until(
      () => again.got.filter((m) => String(m.message.body).startsWith("live")).length === 5,
      "live replies",
    );
    const ids = again.got.map((m) => m.id!);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    const bodies = again.got.map((m) => String(m.message.body)).filter((b) => b.startsWith("away"));
    expect(bodies).toEqual(Array.from({ length: 20 }, (_, i) => `away ${i}`));
    expect(again.got.every((m) => m.id! > lastSeen)).toBe(true);
  });

  it("tells with every answer where a subscription must resume so that nothing after the read is missed", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const c = a.api;
    const conv = await startConversation(c, s.db, a.app.id);
    const channel = `conversation_reply.${a.app.id}`;
    // The page reads, then a reply commits before its socket subscribes: resuming from the read's position brings it.
    const read = await c.get(`/api/apps/${a.app.id}/conversations`);
    const at = read.headers.get("x-event-position");
    expect(at).toMatch(/^\d+$/);
    ok(
      await c.postForm(`/api/conversations/${conv.id}/reply`, {
        body: "between the read and the subscription",
      }),
    );
    const { socket, got } = await listen(sockets, { token: a.token });
    const ack = await subscribe(socket, [channel], Number(at));
    await until(
      () => got.some((m) => m.message.body === "between the read and the subscription"),
      "the reply",
    );
    expect(got.every((m) => (m.id ?? 0) > Number(at))).toBe(true);
    // Live delivery starts after the ack's position, which no earlier read's position exceeds. (Equal is right when
    // the hub has not yet tailed the reply at subscribe time: the replay from `at` brings it then.)
    expect(ack.position).toBeGreaterThanOrEqual(Number(at));
    const later = await c.get(`/api/conversations/${conv.id}`);
    expect(Number(later.headers.get("x-event-position"))).toBeGreaterThanOrEqual(ack.position!);
  });

  it("says in the ack when retention purged part of a replay, and the panel then refetches", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const c = a.api;
    const conv = await startConversation(c, s.db, a.app.id);
    const channel = `conversation_reply.${a.app.id}`;
    const lastId = async () => (await s.db.eventLogEntry.aggregate({ _max: { id: true } }))._max.id ?? 0n;
    const before = await lastId();
    for (let i = 0; i < 3; i++)
      ok(await c.postForm(`/api/conversations/${conv.id}/reply`, { body: `old ${i}` }));
    const lastOld = await lastId();
    ok(await c.postForm(`/api/conversations/${conv.id}/reply`, { body: "recent" }));
    // The three old replies' rows age past retention and the purge takes them.
    const aged = await s.db.$executeRaw`
      UPDATE event_log SET created = now() - INTERVAL '3 days' WHERE id > ${before} AND id <= ${lastOld}`;
    expect(aged).toBeGreaterThanOrEqual(3);
    expect((await purgeEventLog(s.db)).events).toBe(aged);

    const away = await listen(sockets, { token: a.token });
    const ack = await subscribe(away.socket, [channel], Number(before));
    expect(ack).toEqual({
      subscribed: [channel],
      refused: [],
      position: ack.position,
      gap: true,
      complete_after: Number(lastOld),
    });
    expect(Number.isSafeInteger(ack.position)).toBe(true);
    // What is left is still replayed (before the ack, on the same socket).
    expect(away.got.map((m) => m.message.body)).toEqual(["recent"]);
    // From the mark on nothing is missing, so no gap.
    const fresh = await listen(sockets, { token: a.token });
    const whole = await subscribe(fresh.socket, [channel], Number(lastOld));
    expect(whole).toEqual({ subscribed: [channel], refused: [], position: whole.position });
    expect(whole.position).toBeGreaterThanOrEqual(ack.position!);
    expect(fresh.got.map((m) => m.message.body)).toEqual(["recent"]);

    // The panel's socket hook invalidates its queries on a gap, and only then.
    const seeded = () => {
      const qc = new QueryClient();
      qc.setQueryData(["probe"], 1);
      return qc;
    };
    const afterGap = seeded();
    handleSubscribeAck(ack, afterGap);
    expect(afterGap.getQueryState(["probe"])?.isInvalidated).toBe(true);
    const afterWhole = seeded();
    handleSubscribeAck(whole, afterWhole);
    expect(afterWhole.getQueryState(["probe"])?.isInvalidated).toBe(false);
  });
});
