import { describe, expect } from "vitest";
import { serverUrl } from "../db/testing";
import { it } from "../testing/fixture";
import { makeUser, unique } from "../testing/factories";
import { conversationRow, recount, type Json } from "../conversations/testing";

/**
 * 1,000 writes of three kinds (replies, props updates, events) spread over 20 conversations and 50 users, through
 * real HTTP, all 1,000 in flight at once (one connection each). Afterwards every counter is what the rows say,
 * nothing is lost or doubled, and every change has exactly one event in the log. PostgreSQL only: the embedded
 * database serialises anyway.
 */
const OPS = 1000;

describe.runIf(serverUrl())("mixed concurrent writes on PostgreSQL", () => {
  it(`${OPS} replies, props updates and events: counters, summaries and the event log exact`, async ({
    server: s,
    app: a,
  }) => {
    const c = a.api;
    const users = await Promise.all(Array.from({ length: 50 }, () => makeUser(s.db, a.app.id)));
    const convs: bigint[] = [];
    for (const u of users.slice(0, 20)) {
      const r = await c.postForm(`/api/users/${u.id}/startconversation`, { body: "hello" });
      expect(r.status, r.text).toBe(200);
      convs.push(BigInt((r.body.data as Json).id as number));
    }
    const since = (await s.db.eventLogEntry.aggregate({ _max: { id: true } }))._max.id ?? 0n;
    const eventName = unique("Clicked");
    type Op =
      | { kind: "reply"; conv: bigint; fromUser: boolean }
      | { kind: "props"; user: bigint; tag: string }
      | { kind: "event"; user: bigint; created: number };
    // A fixed interleaving (no randomness: a failure replays).
    const ops: Op[] = Array.from({ length: OPS }, (_, i): Op => {
      if (i % 5 < 2) return { kind: "reply", conv: convs[(i * 7) % convs.length]!, fromUser: i % 2 === 0 };
      if (i % 5 < 4) return { kind: "props", user: users[(i * 11) % users.length]!.id, tag: `t${i % 13}` };
      return { kind: "event", user: users[(i * 13) % users.length]!.id, created: 1_700_000_000 + (i % 97) };
    });
    const results = await Promise.all(
      ops.map((op, i) => {
        if (op.kind === "reply")
          return c.postForm(`/api/conversations/${op.conv}/reply`, {
            body: `message ${i}`,
            random_id: String(i + 1),
            ...(op.fromUser ? { from_user: "default_user" } : {}),
          });
        if (op.kind === "props")
          return c.postJson(`/api/users/${op.user}/props`, {
            operations: [
              { op: "add", key: "clicks", value: 1 },
              { op: "union", key: "seen", value: [op.tag] },
            ],
          });
        return c.postJson(`/api/users/${op.user}/events`, { event: eventName, created: op.created });
      }),
    );
    for (const [i, r] of results.entries()) expect(r.status, `op ${i}: ${r.text.slice(0, 300)}`).toBe(200);

    // Conversations: the row's counters are what its parts say; every acknowledged reply stored once.
    const partIds = new Set<number>();
    for (const [i, r] of results.entries()) {
      if (ops[i]!.kind !== "reply") continue;
      const id = (r.body.data as Json).id as number;
      expect(partIds.has(id), `part ${id} answered twice`).toBe(false);
      partIds.add(id);
    }
    for (const conv of convs) {
      const row = await conversationRow(s.db, conv);
      expect(row, `conversation ${conv}`).toMatchObject(await recount(s.db, conv));
      const acked = ops.filter((o) => o.kind === "reply" && o.conv === conv).length;
      expect(row.partsCount).toBe(acked + 1);
    }
    const stored = await s.db.conversationPart.findMany({
      where: { id: { in: [...partIds].map(BigInt) } },
      select: { id: true },
    });
    expect(stored).toHaveLength(partIds.size);

    // Users: props and event summaries exact.
    for (const u of users) {
      const mine = ops.filter((o) => o.kind === "props" && o.user === u.id) as Extract<
        Op,
        { kind: "props" }
      >[];
      const events = ops.filter((o) => o.kind === "event" && o.user === u.id) as Extract<
        Op,
        { kind: "event" }
      >[];
      const row = await s.db.user.findUniqueOrThrow({ where: { id: u.id } });
      const props = row.propsCustom as { clicks?: number; seen?: string[] };
      expect(props.clicks ?? 0, `user ${u.id} clicks`).toBe(mine.length);
      expect([...(props.seen ?? [])].sort()).toEqual([...new Set(mine.map((o) => o.tag))].sort());
      const summary = await s.db.userEventSummary.findFirst({ where: { userId: u.id } });
      expect(summary?.count ?? 0, `user ${u.id} event count`).toBe(events.length);
      if (events.length) {
        expect(summary!.last.getTime() / 1000).toBe(Math.max(...events.map((e) => e.created)));
        expect(summary!.first.getTime() / 1000).toBe(Math.min(...events.map((e) => e.created)));
      }
      expect(await s.db.event.count({ where: { userId: u.id } })).toBe(events.length);
    }

    // The event log: each reply and each event exactly once, each props update at least once per change.
    const log = await s.db.eventLogEntry.findMany({ where: { appId: a.app.id, id: { gt: since } } });
    expect(new Set(log.map((e) => e.id)).size).toBe(log.length);
    const replyEvents = log.filter((e) => e.channel === `conversation_reply.${a.app.id}`);
    const replyIds = replyEvents.map((e) => (e.payload as Json).id as number).sort((x, y) => x - y);
    expect(replyIds).toEqual([...partIds].sort((x, y) => x - y));
    const eventRows = log.filter((e) => e.channel === `event.${a.app.id}`);
    expect(eventRows).toHaveLength(ops.filter((o) => o.kind === "event").length);
    expect(new Set(eventRows.map((e) => (e.payload as Json).id)).size).toBe(eventRows.length);
    const propsChanged = log.filter((e) => e.channel === `user_props_changed.${a.app.id}`);
    for (const u of users) {
      const n = ops.filter((o) => o.kind === "props" && o.user === u.id).length;
      expect(propsChanged.filter((e) => e.userId === u.id).length).toBeGreaterThanOrEqual(n);
    }
  }, 300_000);
});
