import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it } from "../testing/fixture";
import { client } from "../testing/http";
import { makeApp, makeUser, unique } from "../testing/factories";
import { ok } from "../users/testing";
import { resolveVersion } from "../api/versions";
import { invalidateSubscriptions } from "../eventlog/webhook-state";
import { trackEventGrouped } from "./track-grouped";

interface Ev {
  id: number;
  created: number;
  type: { id: number; name: string; score: number; visible: boolean };
  user: number;
  props: Record<string, unknown>;
}

/** What an app's token makes of a request, for calling the grouped ingest directly. */
const tokenCtx = (s: TestServer, appId: bigint) => ({
  db: s.db,
  actor: { kind: "token" as const, apiKeyId: 0n, appId, scopes: [] },
  appId,
  version: resolveVersion(undefined),
  requestId: "test",
});

describe("grouped ingest", () => {
  it("writes the events arriving together in one statement, with exact summaries and log", async ({
    server: s,
  }) => {
    const b = await makeApp(s.db);
    const ctx = tokenCtx(s, b.app.id);
    const u1 = await makeUser(s.db, b.app.id);
    const u2 = await makeUser(s.db, b.app.id);
    const [clicked, scrolled] = [unique("Clicked"), unique("Scrolled")];
    const at = (i: number) => new Date(1_700_000_000_000 + i * 1000);
    const calls = Array.from({ length: 40 }, (_, i) =>
      trackEventGrouped(ctx, {
        user: i % 2 ? { id: String(u1.id) } : { id: u2.userId!, by_user_id: true },
        event: i % 4 < 2 ? clicked : scrolled,
        params: { i },
        created: at(i),
      }),
    );
    const unknown = trackEventGrouped(ctx, { user: { id: "987654321" }, event: clicked });
    const rows = await Promise.all(calls);
    expect(await unknown).toBeUndefined();
    expect(new Set(rows.map((r) => r?.id)).size).toBe(40);
    rows.forEach((r, i) => expect(r?.props).toEqual({ i }));
    const summaries = await s.db.userEventSummary.findMany({ where: { userId: { in: [u1.id, u2.id] } } });
    expect(summaries).toHaveLength(4);
    for (const sum of summaries) expect(sum.count).toBe(10);
    const log = await s.db.eventLogEntry.findMany({ where: { appId: b.app.id }, orderBy: { id: "asc" } });
    const events = log.filter((r) => r.type === "event");
    expect(events.map((r) => (r.payload as unknown as Ev).props.i)).toEqual(rows.map((_, i) => i));
    const changed = log.filter((r) => r.type === "user_props_changed");
    // The first event was written alone; the other 39 arrived while it was and were written together.
    expect(changed.length).toBeLessThan(40);
    const lastOf = new Map<string, Record<string, unknown>>();
    for (const r of changed) {
      const p = r.payload as { user: number; props: Record<string, unknown> };
      lastOf.set(`${p.user}:${Object.keys(p.props).join()}`, p.props);
    }
    const counts = [...lastOf.values()].map(
      (p) => Object.entries(p).find(([k]) => k.endsWith("_count"))?.[1],
    );
    expect(counts).toEqual([10, 10, 10, 10]);
    expect(await s.db.event.count({ where: { appId: b.app.id } })).toBe(40);
  });

  it("writes what the transaction writes: answer, log rows and webhook deliveries", async ({ server: s }) => {
    const b = await makeApp(s.db);
    const sub = await s.db.webhookSubscription.create({
      data: {
        appId: b.app.id,
        url: "http://127.0.0.1:1/hook",
        events: ["user.event", "user.props_changed"],
        secret: "s",
      },
    });
    invalidateSubscriptions(b.app.id);
    const name = unique("Signed up");
    // A user to create takes the transaction; the same user's next event takes the one statement.
    const viaTx = ok<Ev>(
      await client(s, b.token).postJson(`/api/users/${unique("cus")}/events`, {
        by_user_id: true,
        event: name,
        params: { step: 1 },
        created: 1_700_000_000,
      }),
    );
    const ctx = tokenCtx(s, b.app.id);
    const row = await trackEventGrouped(ctx, {
      user: { id: String(viaTx.user) },
      event: name,
      params: { step: 2 },
      created: new Date(1_700_000_100_000),
    });
    expect(row).toBeDefined();
    const viaOne = ok<Ev>(
      await client(s, b.token).postJson(`/api/users/${viaTx.user}/events`, {
        event: name,
        created: 1_699_999_000,
      }),
    );
    const log = await s.db.eventLogEntry.findMany({
      where: { appId: b.app.id, type: { in: ["event", "user_props_changed"] } },
      orderBy: { id: "asc" },
    });
    expect(log.map((r) => [r.type, r.channel, r.userId])).toEqual(
      [1, 2, 3].flatMap(() => [
        ["event", `event.${b.app.id}`, BigInt(viaTx.user)],
        ["user_props_changed", `user_props_changed.${b.app.id}`, BigInt(viaTx.user)],
      ]),
    );
    expect(log[0]?.payload).toEqual(viaTx);
    expect(log[4]?.payload).toEqual(viaOne);
    expect((log[2]?.payload as unknown as Ev).props).toEqual({ step: 2 });
    const t = viaTx.type.id;
    const props = (first: string, last: string, count: number) => ({
      user: viaTx.user,
      app: Number(b.app.id),
      props: { [`$event_${t}_first`]: first, [`$event_${t}_last`]: last, [`$event_${t}_count`]: count },
    });
    expect(log[1]?.payload).toEqual(props("2023-11-14T22:13:20", "2023-11-14T22:13:20", 1));
    expect(log[3]?.payload).toEqual(props("2023-11-14T22:13:20", "2023-11-14T22:15:00", 2));
    expect(log[5]?.payload).toEqual(props("2023-11-14T21:56:40", "2023-11-14T22:15:00", 3));
    const deliveries = await s.db.webhookDelivery.findMany({
      where: { subscriptionId: sub.id },
      orderBy: { eventId: "asc" },
    });
    expect(deliveries.map((d) => [d.eventId, d.type])).toEqual(
      log.map((r) => [r.id, r.type === "event" ? "user.event" : "user.props_changed"]),
    );
    expect(deliveries.map((d) => d.payload)).toEqual(log.map((r) => r.payload));
  });

  it("leaves to the transaction what it cannot serve, writing nothing", async ({ server: s, app: a }) => {
    const b = await makeApp(s.db);
    const u = await makeUser(s.db, a.app.id);
    const ctx = tokenCtx(s, b.app.id);
    const before = await s.db.event.count();
    for (const user of [{ id: String(u.id) }, { id: unique("nobody"), by_user_id: true }, { id: "x1" }]) {
      expect(await trackEventGrouped(ctx, { user, event: unique("e") })).toBeUndefined();
    }
    expect(await s.db.event.count()).toBe(before);
    expect(await s.db.eventType.count({ where: { appId: b.app.id } })).toBe(0);
  });
});
