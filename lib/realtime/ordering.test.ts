import { afterAll, describe, expect } from "vitest";
import pg from "pg";
import type { Socket } from "socket.io-client";
import { serverUrl } from "../db/testing";
import type { Msg } from "./testing";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";
import { ok, startConversation } from "../conversations/testing";
import { Prisma } from "../db/generated/client";
import { EVENT_LOG_LOCK, WRITER_LOCK } from "../eventlog/keys";

/**
 * Writers draw event IDs without waiting for each other, so a later ID can commit first. The tail must not deliver
 * it before the earlier one is settled: a client that then resumed from the later ID would never get the earlier.
 * Only PostgreSQL has concurrent transactions (the embedded database runs one at a time).
 */
describe.runIf(serverUrl())("event IDs committed out of order", () => {
  // One socket and one slow writer's connection for both tests, each test starting from a quiet socket.
  let socket: Socket;
  const got: Msg<{ body?: string }>[] = [];
  let slow: pg.Client;

  it.beforeAll(async ({ server, app, sockets }) => {
    socket = await sockets.open({ token: app.token });
    socket.on("message", (m: Msg<{ body?: string }>) => got.push(m));
    await socket.emitWithAck("subscribe", { channels: [`conversation_reply.${app.app.id}`] });
    slow = new pg.Client({ connectionString: server.dbUrl });
    await slow.connect();
  });
  afterAll(async () => {
    await slow.end();
  });

  /** A writer that has drawn its ID under its lock, as lib/eventlog/append.ts draws them, and has not committed yet. */
  async function slowWriter(a: TestApp, body: string): Promise<number> {
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

  /**
   * Readers of the log waiting for a writer in flight. Each read of the server's tail first waits for the writers in
   * flight (lib/eventlog/final-position.ts): once it waits for the slow writer, which drew the earlier ID before the
   * later reply was made, no read can deliver that reply until the earlier ID is settled. A tail that read past
   * writers in flight would never be seen waiting.
   */
  async function waitingReaders(s: TestServer): Promise<number> {
    const [row] = await s.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_locks l
      WHERE l.locktype = 'advisory' AND l.classid = ${EVENT_LOG_LOCK}::int4::oid AND l.objsubid = 2
        AND NOT l.granted AND l.mode = 'ShareLock'
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
    return row?.n ?? 0;
  }
  const tailWaiting = (s: TestServer) =>
    expect
      .poll(() => waitingReaders(s), { timeout: 20_000, message: "the tail waiting for the slow writer" })
      .toBeGreaterThan(0);

  /** A new conversation whose own message has arrived, with nothing received since. */
  async function quietConversation(s: TestServer, a: TestApp) {
    const c = a.api;
    got.length = 0;
    const conv = await startConversation(c, s.db, a.app.id);
    await waitFor(1);
    got.length = 0;
    return { c, conv };
  }

  it("holds a later ID back until the earlier one commits, then delivers both in order", async ({
    server: s,
    app: a,
  }) => {
    const { c, conv } = await quietConversation(s, a);
    const earlier = await slowWriter(a, "earlier");
    const later = ok(await c.postForm(`/api/conversations/${conv.id}/reply`, { body: "later" }));
    expect(Number(later.id)).toBeGreaterThan(0);
    await tailWaiting(s);
    expect(got).toEqual([]);
    await slow.query("COMMIT");
    await waitFor(2);
    expect(got.map((m) => m.message.body)).toEqual(["earlier", "later"]);
    expect(got[0]!.id).toBe(earlier);
    expect(got[1]!.id).toBeGreaterThan(earlier);
  });

  it("delivers the later ID once the earlier one is rolled back", async ({ server: s, app: a }) => {
    const { c, conv } = await quietConversation(s, a);
    await slowWriter(a, "never");
    ok(await c.postForm(`/api/conversations/${conv.id}/reply`, { body: "after a rollback" }));
    await tailWaiting(s);
    expect(got).toEqual([]);
    await slow.query("ROLLBACK");
    await waitFor(1);
    // A reply made now comes after anything else the rollback would have let through.
    ok(await c.postForm(`/api/conversations/${conv.id}/reply`, { body: "then" }));
    await waitFor(2);
    expect(got.map((m) => m.message.body)).toEqual(["after a rollback", "then"]);
  });
});
