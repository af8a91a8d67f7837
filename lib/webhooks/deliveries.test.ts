import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../db/testing";
import { makeApp } from "../testing/factories";
import { sqlOf } from "../db/sql";
import { withEvents, type LogEvent } from "../eventlog/append";
import { partEvent, userEvent } from "../realtime/testing";
import { claimDue, recordAttempt, recordSuccesses, retryDelay, webhookBody } from "./deliveries";
import { invalidateSubscriptions } from "../eventlog/webhook-state";
import { purgeEventLog, purgedUpTo } from "../eventlog/retention";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t.close();
});

const subscribe = async (appId: bigint, events: string[], active = true) => {
  const s = await t.db.webhookSubscription.create({
    data: { appId, url: "http://127.0.0.1:1/hook", events, secret: "whsec_test", active },
  });
  invalidateSubscriptions(appId);
  return s;
};

const reply = (appId: bigint, type: string) => partEvent(appId, { type, meta_data: { k: 1 }, random_id: 7 });

const write = (events: LogEvent[]) =>
  withEvents(t.db, async (_tx, emit) => {
    for (const e of events) emit(e);
  });

const deliveriesOf = (subscriptionId: bigint) =>
  t.db.webhookDelivery.findMany({ where: { subscriptionId }, orderBy: { id: "asc" } });

describe("webhook deliveries of logged events", () => {
  it("queues a delivery per matching active subscription, in the writing transaction", async () => {
    const { app } = await makeApp(t.db);
    const replies = await subscribe(app.id, ["conversation.user_replied"]);
    const all = await subscribe(app.id, ["conversation.user_replied", "conversation.note_added"]);
    const paused = await subscribe(app.id, ["conversation.user_replied"], false);
    await write([reply(app.id, "reply_user"), reply(app.id, "note"), reply(app.id, "assigned")]);
    const a = await deliveriesOf(replies.id);
    const b = await deliveriesOf(all.id);
    expect(a.map((d) => d.type)).toEqual(["conversation.user_replied"]);
    expect(b.map((d) => d.type)).toEqual(["conversation.user_replied", "conversation.note_added"]);
    expect(await deliveriesOf(paused.id)).toEqual([]);
    expect(a[0]).toMatchObject({ status: "pending", attempts: 0 });
    expect(a[0]!.payload).toMatchObject({ type: "reply_user", meta_data: { k: 1 }, random_id: 7 });
    const ev = await t.db.eventLogEntry.findUniqueOrThrow({ where: { id: a[0]!.eventId! } });
    expect(ev.appId).toBe(app.id);
  });

  it("queues nothing when the transaction rolls back", async () => {
    const { app } = await makeApp(t.db);
    const sub = await subscribe(app.id, ["conversation.user_replied"]);
    await expect(
      withEvents(t.db, async (_tx, emit) => {
        emit(reply(app.id, "reply_user"));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await deliveriesOf(sub.id)).toEqual([]);
  });

  it("queues them with the rows that match, in the events' order, in a driver transaction too", async () => {
    const { app } = await makeApp(t.db);
    const sub = await subscribe(app.id, ["conversation.user_replied"]);
    const second = partEvent(app.id, { id: 2, type: "reply_user", body: "second" });
    const events = [reply(app.id, "note"), second, reply(app.id, "assigned")];
    await withEvents(sqlOf(t.db), async (_tx, emit) => events.forEach(emit));
    const [d] = await deliveriesOf(sub.id);
    expect(d).toMatchObject({ type: "conversation.user_replied", payload: { id: 2, body: "second" } });
    const ev = await t.db.eventLogEntry.findUniqueOrThrow({ where: { id: d!.eventId! } });
    expect(ev.payload).toEqual(d!.payload);
    await expect(
      withEvents(sqlOf(t.db), async (_tx, emit) => {
        emit(reply(app.id, "reply_user"));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await deliveriesOf(sub.id)).toHaveLength(1);
  });

  it("trusts its cache of an app's subscriptions for a few seconds", async () => {
    const { app } = await makeApp(t.db);
    await write([reply(app.id, "reply_user")]);
    // Written behind the cache's back (as another instance would): not seen until the cache expires.
    const sub = await t.db.webhookSubscription.create({
      data: { appId: app.id, url: "http://127.0.0.1:1/", events: ["conversation.user_replied"], secret: "s" },
    });
    await write([reply(app.id, "reply_user")]);
    expect(await deliveriesOf(sub.id)).toEqual([]);
    invalidateSubscriptions(app.id);
    await write([reply(app.id, "reply_user")]);
    expect(await deliveriesOf(sub.id)).toHaveLength(1);
  });
});

describe("claimDue", () => {
  it("never hands the same delivery to two claimers", async () => {
    const { app } = await makeApp(t.db);
    const sub = await subscribe(app.id, ["user.event"]);
    await write(Array.from({ length: 30 }, () => userEvent(app.id)));
    const claims = await Promise.all([1, 2, 3, 4, 5].map(() => claimDue(t.db, 10, 60_000)));
    const ids = claims
      .flat()
      .filter((c) => c.subscriptionId === sub.id)
      .map((c) => c.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    // Leased: nothing of them is due again until the lease ends.
    const again = await claimDue(t.db, 50, 60_000);
    expect(again.filter((c) => c.subscriptionId === sub.id)).toEqual([]);
  });
});

describe("recordAttempt", () => {
  const backoff = { retryBaseMs: 5_000, retryMaxMs: 3_600_000, retryWindowMs: 86_400_000 };

  it("backs off exponentially with jitter, capped", () => {
    for (let i = 0; i < 20; i++) {
      expect(retryDelay(1, backoff)).toBeGreaterThanOrEqual(4_500);
      expect(retryDelay(1, backoff)).toBeLessThanOrEqual(5_500);
      expect(retryDelay(3, backoff)).toBeGreaterThanOrEqual(18_000);
      expect(retryDelay(3, backoff)).toBeLessThanOrEqual(22_000);
      expect(retryDelay(30, backoff)).toBeLessThanOrEqual(3_960_000);
    }
  });

  it("reschedules a failure, ends in success, and ignores a stale claim", async () => {
    const { app } = await makeApp(t.db);
    const sub = await subscribe(app.id, ["user.event"]);
    await write([userEvent(app.id, { n: 1 })]);
    const [d] = (await claimDue(t.db, 50, 60_000)).filter((c) => c.subscriptionId === sub.id);
    expect(webhookBody(d!)).toBe(webhookBody(d!));
    expect(JSON.parse(webhookBody(d!))).toMatchObject({
      id: `wh_${d!.id}`,
      type: "user.event",
      app: Number(app.id),
      data: { props: { n: 1 } },
    });
    const before = Date.now();
    await recordAttempt(t.db, d!, { ok: false, status: 500, error: "HTTP 500" }, backoff);
    let row = await t.db.webhookDelivery.findUniqueOrThrow({ where: { id: d!.id } });
    expect(row).toMatchObject({
      status: "pending",
      attempts: 1,
      lastResponseCode: 500,
      lastError: "HTTP 500",
    });
    const wait = row.nextAttemptAt!.getTime() - before;
    expect(wait).toBeGreaterThan(3_000);
    expect(wait).toBeLessThan(7_000);
    // The same claim recorded twice (a lost lease): the second is ignored.
    await recordAttempt(t.db, d!, { ok: true, status: 200, error: null }, backoff);
    row = await t.db.webhookDelivery.findUniqueOrThrow({ where: { id: d!.id } });
    expect(row.attempts).toBe(1);
    await recordAttempt(t.db, { ...d!, attempts: 1 }, { ok: true, status: 204, error: null }, backoff);
    row = await t.db.webhookDelivery.findUniqueOrThrow({ where: { id: d!.id } });
    expect(row).toMatchObject({ status: "succeeded", attempts: 2, lastResponseCode: 204, lastError: null });
    expect(row.nextAttemptAt).toBeNull();
  });

  it("records a round's successes in one statement, each guarded by its claim", async () => {
    const { app } = await makeApp(t.db);
    const sub = await subscribe(app.id, ["user.event"]);
    await write([1, 2, 3].map((n) => userEvent(app.id, { n })));
    const mine = (await claimDue(t.db, 50, 60_000)).filter((c) => c.subscriptionId === sub.id);
    expect(mine).toHaveLength(3);
    const [a, b, c] = mine as [(typeof mine)[0], (typeof mine)[0], (typeof mine)[0]];
    // b's claim is stale (another sender recorded an attempt since): its record is ignored.
    await t.db.webhookDelivery.update({ where: { id: b.id }, data: { attempts: 1 } });
    await recordSuccesses(t.db, [
      { d: a, status: 200 },
      { d: b, status: 200 },
      { d: c, status: 204 },
    ]);
    const rows = await deliveriesOf(sub.id);
    expect(rows.map((r) => [r.status, r.attempts, r.lastResponseCode, r.nextAttemptAt])).toEqual([
      ["succeeded", 1, 200, null],
      ["pending", 1, null, rows[1]!.nextAttemptAt],
      ["succeeded", 1, 204, null],
    ]);
    expect(rows[1]!.nextAttemptAt).not.toBeNull();
  });

  it("gives up once the retry window has passed", async () => {
    const { app } = await makeApp(t.db);
    const sub = await subscribe(app.id, ["user.event"]);
    await write([userEvent(app.id)]);
    await t.db.webhookDelivery.updateMany({
      where: { subscriptionId: sub.id },
      data: { created: new Date(Date.now() - 86_400_000 - 1_000) },
    });
    const [d] = (await claimDue(t.db, 50, 60_000)).filter((c) => c.subscriptionId === sub.id);
    await recordAttempt(t.db, d!, { ok: false, status: null, error: "ECONNREFUSED" }, backoff);
    const row = await t.db.webhookDelivery.findUniqueOrThrow({ where: { id: d!.id } });
    expect(row).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: "ECONNREFUSED",
      nextAttemptAt: null,
    });
  });
});

describe("purgeEventLog", () => {
  it("drops old log rows unless a pending delivery needs them, and old finished deliveries", async () => {
    const { app } = await makeApp(t.db);
    const sub = await subscribe(app.id, ["user.event"]);
    await write([
      userEvent(app.id, { n: 1 }),
      userEvent(app.id, { n: 2 }),
      // A row no subscription asks for.
      partEvent(app.id, { type: "note" }),
    ]);
    const [kept, finished] = await deliveriesOf(sub.id);
    const old = new Date(Date.now() - 49 * 3_600_000);
    await t.db.eventLogEntry.updateMany({ where: { appId: app.id }, data: { created: old } });
    await t.db.webhookDelivery.update({
      where: { id: finished!.id },
      data: { status: "succeeded", updated: new Date(Date.now() - 31 * 86_400_000) },
    });
    const written = await t.db.eventLogEntry.findMany({ where: { appId: app.id }, select: { id: true } });
    const fresh = await t.db.eventLogEntry.create({
      data: { appId: app.id, channel: "x", type: "x", payload: {} },
    });
    const purge = () =>
      purgeEventLog(t.db, { eventMaxAgeMs: 48 * 3_600_000, deliveryMaxAgeMs: 30 * 86_400_000, batch: 1 });
    const n = await purge();
    expect(n.events).toBeGreaterThanOrEqual(2);
    expect(n.deliveries).toBeGreaterThanOrEqual(1);
    const left = await t.db.eventLogEntry.findMany({ where: { appId: app.id }, select: { id: true } });
    expect(left.map((e) => e.id).sort()).toEqual([kept!.eventId!, fresh.id].sort());
    expect((await deliveriesOf(sub.id)).map((d) => d.id)).toEqual([kept!.id]);
    // The purge mark is the largest id taken, over every batch, and a purge that takes nothing leaves it.
    const taken = written.map((e) => e.id).filter((id) => id !== kept!.eventId);
    const mark = taken.reduce((x, y) => (y > x ? y : x));
    expect(await purgedUpTo(t.db)).toBe(mark);
    expect((await purge()).events).toBe(0);
    expect(await purgedUpTo(t.db)).toBe(mark);
  });
});
