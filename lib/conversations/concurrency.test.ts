import { describe, expect } from "vitest";
import { serverUrl } from "../db/testing";
import { it } from "../testing/fixture";
import { conversationRow, eventsOf, lastEventId, ok, recount, startConversation, type Json } from "./testing";

/** Many writers on one conversation at once; PostgreSQL only (the embedded database runs one query at a time). */
describe.runIf(serverUrl())("concurrent writes on PostgreSQL", () => {
  it("200 concurrent replies: exact counters, unique IDs, increasing last_update, nothing lost", async ({
    server: s,
    app: a,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const since = await lastEventId(s.db);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        a.api.postForm(`/api/conversations/${conv.id}/reply`, {
          body: `message ${i}`,
          random_id: String(i + 1),
          ...(i % 2 ? { from_user: "default_user" } : {}),
        }),
      ),
    );
    const ids = results.map((r) => ok(r).id as number);
    expect(new Set(ids).size).toBe(200);
    const stored = await s.db.conversationPart.findMany({
      where: { conversationId: conv.id },
      orderBy: { id: "asc" },
    });
    expect(stored).toHaveLength(201);
    expect(new Set(stored.map((p) => Number(p.randomId)))).toEqual(
      new Set([0, ...Array.from({ length: 200 }, (_, i) => i + 1)]),
    );
    const row = await conversationRow(s.db, conv.id);
    expect(row).toMatchObject(await recount(s.db, conv.id));
    expect(row.partsCount).toBe(201);
    for (let i = 1; i < stored.length; i++) expect(stored[i]!.created >= stored[i - 1]!.created).toBe(true);
    const updates = await eventsOf(s.db, `conversation.${a.app.id}`, since);
    expect(updates).toHaveLength(200);
    const times = updates.map((e) => (e.payload as Json).last_update as number);
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]!);
    const counts = updates.map((e) => (e.payload as Json).parts_count as number);
    expect(counts).toEqual(Array.from({ length: 200 }, (_, i) => i + 2));
    const api = ok(await a.api.get(`/api/conversations/${conv.id}`));
    expect(api.last_update).toBe(times[times.length - 1]);
  });

  it("50 concurrent replies with one external_id store one part", async ({ server: s, app: a }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        a.api.postForm(`/api/conversations/${conv.id}/reply`, { body: `copy ${i}`, external_id: "msg-123" }),
      ),
    );
    const ids = new Set(results.map((r) => ok(r).id));
    expect(ids.size).toBe(1);
    expect(
      await s.db.conversationPart.count({ where: { conversationId: conv.id, externalId: "msg-123" } }),
    ).toBe(1);
    expect(await conversationRow(s.db, conv.id)).toMatchObject({
      ...(await recount(s.db, conv.id)),
      partsCount: 2,
    });
  });

  it("mixed concurrent tags, assigns and replies keep the fields exact", async ({ server: s, app: a }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const tags = Array.from({ length: 20 }, (_, i) => `t${i}`);
    await Promise.all([
      ...tags.map((tag) => a.api.postForm(`/api/conversations/${conv.id}/tag`, { tag }).then(ok)),
      ...tags.map((_, i) =>
        a.api
          .postForm(`/api/conversations/${conv.id}/reply`, { body: String(i), from_user: "default_user" })
          .then(ok),
      ),
      ...tags.map(() =>
        a.api.postForm(`/api/conversations/${conv.id}/assign`, { admin: String(a.admin.id) }).then(ok),
      ),
    ]);
    const row = await conversationRow(s.db, conv.id);
    expect([...row.tags].sort()).toEqual([...tags].sort());
    expect(row).toMatchObject({
      ...(await recount(s.db, conv.id)),
      assigneeId: a.admin.id,
      partsCount: 1 + 20 + 20 + 1,
    });
  });
});
