import { afterAll, describe, expect } from "vitest";
import pg from "pg";
import { io as connect, type Socket } from "socket.io-client";
import { serverUrl } from "../db/testing";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";
import { client } from "../testing/http";
import { ok, startConversation } from "../conversations/testing";
import { Prisma } from "../db/generated/client";
import { WRITER_LOCK } from "../eventlog/keys";

interface Msg {
  id: number;
  message: { body?: string };
}

/**
 * Writers draw event IDs without waiting for each other, so a later ID can commit first. The tail must not deliver
 * it before the earlier one is settled: a client that then resumed from the later ID would never get the earlier.
 * Only PostgreSQL has concurrent transactions (the embedded database runs one at a time).
 */
describe.runIf(serverUrl())("event IDs committed out of order", () => {
  let s: TestServer;
  let a: TestApp;
  let socket: Socket;
  const got: Msg[] = [];
  let slow: pg.Client;

  it.beforeAll(async ({ server, app }) => {
    s = server;
    a = app;
    socket = connect(s.url, { path: "/socket.io", transports: ["websocket"], auth: { token: a.token } });
    socket.on("message", (m: Msg) => got.push(m));
    await socket.emitWithAck("subscribe", { channels: [`conversation_reply.${a.app.id}`] });
    slow = new pg.Client({ connectionString: s.dbUrl });
    await slow.connect();
  });
  afterAll(async () => {
    socket.disconnect();
    await slow.end();
  });

  /** A writer that has drawn its ID under its lock, as lib/eventlog/append.ts draws them, and has not committed yet. */
  async function slowWriter(body: string): Promise<number> {
    await slow.query("BEGIN");
    const q = Prisma.sql`
      WITH l AS MATERIALIZED (SELECT ${WRITER_LOCK}::text AS locked)
      INSERT INTO event_log (app_id, channel, type, payload)
      SELECT ${String(a.app.id)}::bigint, ${`conversation_reply.${a.app.id}`}, 'conversation_reply',
        ${JSON.stringify({ body })}::jsonb
      FROM l RETURNING id`;
    const r = await slow.query<{ id: string }>(q.text, q.values);
    return Number(r.rows[0]!.id);
  }

  async function waitFor(n: number) {
    const end = Date.now() + 20_000;
    while (got.length < n) {
      if (Date.now() > end) throw new Error(`got ${got.length} of ${n} messages`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  const settle = () => new Promise((r) => setTimeout(r, 1000));

  /** A new conversation whose own message has arrived, with nothing received since. */
  async function quietConversation() {
    const c = client(s, a.token);
    got.length = 0;
    const conv = await startConversation(c, s.db, a.app.id);
    await waitFor(1);
    got.length = 0;
    return { c, conv };
  }

  it("holds a later ID back until the earlier one commits, then delivers both in order", async () => {
    const { c, conv } = await quietConversation();
    const earlier = await slowWriter("earlier");
    const later = ok(await c.postForm(`/api/conversations/${conv.id}/reply`, { body: "later" }));
    expect(Number(later.id)).toBeGreaterThan(0);
    await settle();
    expect(got).toEqual([]);
    await slow.query("COMMIT");
    await waitFor(2);
    expect(got.map((m) => m.message.body)).toEqual(["earlier", "later"]);
    expect(got[0]!.id).toBe(earlier);
    expect(got[1]!.id).toBeGreaterThan(earlier);
  });

  it("delivers the later ID once the earlier one is rolled back", async () => {
    const { c, conv } = await quietConversation();
    await slowWriter("never");
    ok(await c.postForm(`/api/conversations/${conv.id}/reply`, { body: "after a rollback" }));
    await settle();
    expect(got).toEqual([]);
    await slow.query("ROLLBACK");
    await waitFor(1);
    await settle();
    expect(got.map((m) => m.message.body)).toEqual(["after a rollback"]);
  });
});
