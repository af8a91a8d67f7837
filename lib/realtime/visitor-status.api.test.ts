import { describe, expect } from "vitest";
import type { Socket } from "socket.io-client";
import { it, type TestSockets } from "../testing/fixture";
import { client } from "../testing/http";
import { makeApp, makeSession } from "../testing/factories";
import { ok } from "../users/testing";
import { bootTestVisitor, warmUpVisitorApi, type TestVisitor } from "../messenger/testing";
import { visitorRealtimeSchemas, type VisitorRealtimeMessage } from "../messenger/visitor-realtime-schemas";

it.beforeAll(warmUpVisitorApi);

type Msg = VisitorRealtimeMessage & { id: number | null };

/** A visitor socket subscribed to `messenger`, what it receives checked against the contract. */
async function listen(sockets: TestSockets, v: TestVisitor): Promise<{ socket: Socket; got: Msg[] }> {
  const socket = await sockets.open({ token: v.boot.access_token });
  const got: Msg[] = [];
  socket.on("message", (m: Msg) => {
    visitorRealtimeSchemas[m.type].parse(m.message);
    got.push(m);
  });
  const ack = (await socket.timeout(10_000).emitWithAck("subscribe", { channels: ["messenger"] })) as {
    subscribed: string[];
  };
  expect(ack.subscribed).toEqual(["messenger"]);
  return { socket, got };
}

const statuses = (got: Msg[]) =>
  got.filter((m) => m.type === "messenger_status").map((m) => m.message as { operators_online: boolean });

describe("realtime: who can answer, pushed to the app's visitors", () => {
  it("an operator going Away, then Available, reaches the open messengers of that app only", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const session = await makeSession(s.db, a.admin.id);
    const panel = await sockets.open({ cookie: session.cookie });
    const operator = client(s, session);
    const set = async (status: string) =>
      ok(await operator.postJson(`/api/v2/apps/${a.app.id}/availability`, { status }));
    await set("available");

    const visitor = await bootTestVisitor(s, a);
    const mine = await listen(sockets, visitor);
    const other = await makeApp(s.db);
    const stranger = await bootTestVisitor(s, { ...other, api: client(s, other.token) });
    const theirs = await listen(sockets, stranger);
    // The boot already says who can answer, so the messenger's first render is right; the panel that just opened
    // counts at once.
    expect(visitor.boot).toMatchObject({ operators_online: true, opens_at: null });
    expect(stranger.boot).toMatchObject({ operators_online: false, opens_at: null });

    await set("away");
    await expect.poll(() => statuses(mine.got).at(-1)).toEqual({ operators_online: false, opens_at: null });
    await set("available");
    await expect.poll(() => statuses(mine.got).at(-1)).toEqual({ operators_online: true, opens_at: null });
    expect(mine.got.filter((m) => m.type === "messenger_status").every((m) => m.id === null)).toBe(true);
    // The heartbeat agrees at once: no instance keeps the old reading.
    const next = await bootTestVisitor(s, a);
    expect(next.boot).toMatchObject({ operators_online: true, opens_at: null });
    const beat = ok<{ operators_online: boolean }>(
      await client(s, next.boot.access_token).postJson("/api/v2/messenger/heartbeat", {}),
    );
    expect(beat.operators_online).toBe(true);
    expect(statuses(theirs.got)).toEqual([]);
    for (const socket of [panel, mine.socket, theirs.socket]) socket.disconnect();
  });
});
