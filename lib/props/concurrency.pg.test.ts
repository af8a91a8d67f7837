import { describe, expect } from "vitest";
import { serverUrl } from "../db/testing";
import { it } from "../testing/fixture";
import { makeUser, unique } from "../testing/factories";
import { ok } from "../users/testing";

/** Only a real PostgreSQL server runs transactions concurrently; the embedded database serialises them anyway. */
describe.runIf(serverUrl())("concurrency on PostgreSQL", () => {
  it(
    "sums 100 concurrent add operations on one prop exactly",
    { timeout: 120_000 },
    async ({ server: s, app: a }) => {
      const u = await makeUser(s.db, a.app.id);
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          a.api.postJson(`/api/users/${u.id}/props`, {
            operations: [
              { op: "add", key: "clicks", value: 1 },
              { op: "add", key: "$sessions", value: 1 },
              { op: "union", key: "seen", value: [`p${i % 10}`] },
            ],
          }),
        ),
      );
      for (const r of results) ok(r);
      const row = await s.db.user.findUniqueOrThrow({ where: { id: u.id } });
      expect(row.sessions).toBe(100);
      expect((row.propsCustom as { clicks: number }).clicks).toBe(100);
      expect(((row.propsCustom as { seen: string[] }).seen ?? []).sort()).toEqual(
        Array.from({ length: 10 }, (_, i) => `p${i}`),
      );
    },
  );

  it(
    "keeps event counts, summaries and event types exact under concurrent events",
    { timeout: 120_000 },
    async ({ server: s, app: a }) => {
      const u = await makeUser(s.db, a.app.id);
      const name = unique("Clicked");
      const created = Array.from({ length: 100 }, (_, i) => 1_700_000_000 + ((i * 37) % 100));
      const results = await Promise.all(
        created.map((c) => a.api.postJson(`/api/users/${u.id}/events`, { event: name, created: c })),
      );
      for (const r of results) ok(r);
      expect(await s.db.eventType.count({ where: { appId: a.app.id, name } })).toBe(1);
      expect(await s.db.event.count({ where: { userId: u.id } })).toBe(100);
      const sum = await s.db.userEventSummary.findFirstOrThrow({ where: { userId: u.id } });
      expect(sum.count).toBe(100);
      expect(sum.first.getTime() / 1000).toBe(1_700_000_000);
      expect(sum.last.getTime() / 1000).toBe(1_700_000_099);
      const view = ok(await a.api.get(`/api/users/${u.id}`, { props_events: true }));
      expect(view.props_events).toMatchObject({ [`$event_${sum.eventTypeId}_count`]: 100 });
    },
  );

  it(
    "makes one user for concurrent by_user_id calls and one type for concurrent first uses across users",
    { timeout: 120_000 },
    async ({ server: s, app: a }) => {
      const key = unique("racer");
      const name = unique("First use");
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          i % 2
            ? a.api.postJson(`/api/users/${key}/events`, { by_user_id: true, event: name })
            : a.api.postJson(`/api/users/${key}/props`, {
                by_user_id: true,
                operations: [{ op: "add", key: "n", value: 1 }],
              }),
        ),
      );
      for (const r of results) ok(r);
      const users = await s.db.user.findMany({ where: { appId: a.app.id, userId: key } });
      expect(users).toHaveLength(1);
      expect((users[0]!.propsCustom as { n: number }).n).toBe(20);
      expect(await s.db.eventType.count({ where: { appId: a.app.id, name } })).toBe(1);
      const others = await Promise.all(Array.from({ length: 30 }, () => makeUser(s.db, a.app.id)));
      const other = unique("Shared type");
      for (const r of await Promise.all(
        others.map((o) => a.api.postJson(`/api/users/${o.id}/events`, { event: other })),
      ))
        ok(r);
      expect(await s.db.eventType.count({ where: { appId: a.app.id, name: other } })).toBe(1);
    },
  );
});
