import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../db/testing";
import { verifyPassword } from "../auth/passwords";
import { SCOPES } from "../auth/scopes";
import { verifyApiKey } from "../auth/tokens";
import { isMessage } from "../parts/state";
import { planConversations } from "./conversations";
import { DEMO_EMAIL, DEMO_PASSWORD } from "./fixtures";
import { planEvents, planUsers } from "./people";
import { Random } from "./random";
import { seedDemo, type SeedResult } from "./seed";

let t: TestDb;
let seeded: SeedResult | null;
const now = new Date();

beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.close();
});

const maxBy = <T>(items: T[], key: (x: T) => bigint) =>
  items.reduce<T | undefined>((best, x) => (best === undefined || key(x) > key(best) ? x : best), undefined);

describe("seedDemo", () => {
  it("leaves nothing behind when it fails half-way", async () => {
    const boom = seedDemo(t.db, {
      now,
      beforeCommit: async () => {
        throw new Error("killed mid-seed");
      },
    });
    await expect(boom).rejects.toThrow("killed mid-seed");
    for (const count of [t.db.app.count(), t.db.admin.count(), t.db.user.count(), t.db.event.count()]) {
      expect(await count).toBe(0);
    }
  });

  it("creates the demo workspace on an empty database", async () => {
    seeded = await seedDemo(t.db, { now });
    expect(seeded).toMatchObject({ adminEmail: DEMO_EMAIL, adminPassword: DEMO_PASSWORD });
    const appId = seeded!.appId;
    expect((await t.db.app.findUniqueOrThrow({ where: { id: appId } })).name).toBe("Demo");
    const members = await t.db.appAdmin.findMany({ where: { appId }, include: { admin: true } });
    expect(members).toHaveLength(3);
    const owner = members.find((m) => m.admin.email === DEMO_EMAIL);
    expect(owner?.role).toBe("owner");
    expect(await verifyPassword(DEMO_PASSWORD, owner!.admin.passwordHash)).toBe(true);
    const auth = await verifyApiKey(t.db, seeded!.token);
    expect(auth?.appId).toBe(appId);
    expect(auth?.scopes.length).toBe(SCOPES.length);

    const channels = await t.db.channel.findMany({ where: { appId }, orderBy: { id: "asc" } });
    expect(channels.map((c) => c.name)).toEqual(["General", "Sales", "Support"]);
    expect(await t.db.user.count({ where: { appId } })).toBe(200);
    expect(await t.db.conversation.count({ where: { appId } })).toBe(50);
    expect(await t.db.segment.count({ where: { appId } })).toBe(2);
    expect(await t.db.eventType.count({ where: { appId } })).toBeGreaterThan(3);
    expect(await t.db.event.count({ where: { appId } })).toBeGreaterThan(500);
    expect(await t.db.userTag.count({ where: { appId } })).toBeGreaterThan(0);
    expect(await t.db.userNote.count({ where: { appId } })).toBeGreaterThan(0);
  });

  it("keeps every conversation's denormalised fields exact", async () => {
    const convs = await t.db.conversation.findMany({ include: { parts: { orderBy: { id: "asc" } } } });
    for (const c of convs) {
      const parts = c.parts;
      const newest = maxBy(parts, (p) => p.id)!;
      const replies = parts.filter((p) => p.type === "reply_user" || p.type === "reply_admin");
      const lastReply = maxBy(replies, (p) => p.id);
      const lastAdminReply = maxBy(
        parts.filter((p) => p.type === "reply_admin"),
        (p) => p.id,
      );
      const lastOfKind = (...types: string[]) => parts.findLast((p) => types.includes(p.type))?.type;
      const unread = parts.filter((p) => p.direction === "u2a" && !p.read).length;
      expect(c.partsCount).toBe(parts.length);
      expect(c.unreadPartsCount).toBe(unread);
      expect(c.read).toBe(unread === 0);
      expect(c.lastUpdate.getTime()).toBe(Math.max(...parts.map((p) => p.created.getTime())));
      expect(c.partLastId).toBe(newest.id);
      expect(c.importantPartLastId).toBe(
        maxBy(
          parts.filter((p) => isMessage(p.type)),
          (p) => p.id,
        )?.id,
      );
      expect(c.replyLastId).toBe(lastReply?.id ?? null);
      expect(c.replied).toBe(lastAdminReply !== undefined);
      expect(c.lastAdminId).toBe(lastAdminReply?.fromAdminId ?? null);
      expect(c.hasUserReplies).toBe(parts.some((p) => p.type === "reply_user"));
      expect(c.answered).toBe(lastReply?.type === "reply_admin");
      expect(c.assigneeId).toBe(
        maxBy(
          parts.filter((p) => p.type === "assigned"),
          (p) => p.id,
        )?.assigneeId ?? null,
      );
      expect(c.closed).toBe(lastOfKind("closed", "reopened", "reply_user", "delayed") === "closed");
      const delayed = lastOfKind("delayed", "delay_cancelled", "reply_user", "closed") === "delayed";
      expect(c.delayedUntil !== null).toBe(delayed);
      if (delayed) expect(c.delayedUntil!.getTime()).toBeGreaterThan(now.getTime());
      expect(c.tags).toHaveLength(parts.filter((p) => p.type === "tag_added").length);
      expect(c.created.getTime()).toBe(parts[0]!.created.getTime());
      for (const [i, p] of parts.entries()) {
        expect(p.partGroup).toBe(p.id);
        if (i > 0) expect(p.created.getTime()).toBeGreaterThanOrEqual(parts[i - 1]!.created.getTime());
        if (p.type === "reply_user") expect([p.direction, p.fromUserId]).toEqual(["u2a", c.userId]);
        else expect([p.direction, p.fromAdminId === null]).toEqual(["a2u", false]);
        if (p.type === "assigned") expect(p.assigneeId).not.toBeNull();
        expect(p.created.getTime()).toBeLessThanOrEqual(now.getTime());
      }
      // Operators have read everything a visitor wrote before an answer.
      const answeredAt = lastAdminReply?.id ?? 0n;
      expect(parts.filter((p) => p.direction === "u2a" && p.id < answeredAt && !p.read)).toEqual([]);
    }
    const kinds = (pred: (c: (typeof convs)[number]) => boolean) => convs.filter(pred).length;
    expect(kinds((c) => c.closed)).toBeGreaterThan(0);
    expect(kinds((c) => !c.closed)).toBeGreaterThan(0);
    expect(kinds((c) => c.assigneeId !== null)).toBeGreaterThan(0);
    expect(kinds((c) => c.delayedUntil !== null)).toBeGreaterThan(0);
    expect(kinds((c) => c.answered)).toBeGreaterThan(0);
    expect(kinds((c) => !c.answered)).toBeGreaterThan(0);
    expect(kinds((c) => !c.read)).toBeGreaterThan(0);
    expect(kinds((c) => c.tags.length > 0)).toBeGreaterThan(0);
    expect(kinds((c) => c.parts.some((p) => p.type === "note"))).toBeGreaterThan(0);
  });

  it("keeps users' derived fields and lead flags exact", async () => {
    const users = await t.db.user.findMany({ include: { conversations: { include: { parts: true } } } });
    for (const u of users) {
      const parts = u.conversations.flatMap((c) => c.parts);
      const latest = (type: string) => {
        const times = parts.filter((p) => p.type === type).map((p) => p.created.getTime());
        return times.length ? Math.max(...times) : null;
      };
      expect(u.conversationCount).toBe(u.conversations.length);
      expect(u.lastReply?.getTime() ?? null).toBe(latest("reply_user"));
      expect(u.lastContacted?.getTime() ?? null).toBe(latest("reply_admin"));
      const knownOrTalked = Boolean(u.name || u.email || u.phone || u.userId) || u.conversations.length > 0;
      expect(u.isLeadV1).toBe(knownOrTalked);
      expect(u.isLead).toBe(knownOrTalked || u.webpushSubscribed);
      expect(u.created.getTime()).toBeLessThanOrEqual(u.lastSeen!.getTime());
    }
    const leads = users.filter((u) => u.isLead).length / users.length;
    expect(leads).toBeGreaterThan(0.6);
    expect(leads).toBeLessThan(0.8);
    expect(users.some((u) => u.isLead && !u.isLeadV1)).toBe(true);
    expect(users.some((u) => !u.isLead && u.city !== null)).toBe(true);
    const days = users.map((u) => (now.getTime() - u.lastSeen!.getTime()) / 86_400_000);
    expect(Math.max(...days)).toBeGreaterThan(30);
    expect(Math.max(...days)).toBeLessThanOrEqual(60);
  });

  it("keeps event summaries equal to the events", async () => {
    const diff = await t.db.$queryRaw<{ n: number }[]>`
      WITH agg AS (
        SELECT user_id, type_id AS event_type_id, min(created) AS first, max(created) AS last, count(*)::int AS count
        FROM events GROUP BY user_id, type_id
      ), sums AS (SELECT user_id, event_type_id, first, last, count FROM user_event_summaries)
      SELECT ((SELECT count(*) FROM (SELECT * FROM agg EXCEPT SELECT * FROM sums) a)
            + (SELECT count(*) FROM (SELECT * FROM sums EXCEPT SELECT * FROM agg) b))::int AS n`;
    expect(diff[0]?.n).toBe(0);
    expect(await t.db.userEventSummary.count()).toBeGreaterThan(200);
  });

  it("does nothing the second time", async () => {
    const before = await Promise.all([t.db.app.count(), t.db.user.count(), t.db.conversationPart.count()]);
    expect(await seedDemo(t.db)).toBeNull();
    expect(await Promise.all([t.db.app.count(), t.db.user.count(), t.db.conversationPart.count()])).toEqual(
      before,
    );
  });
});

describe("two instances starting at once", () => {
  it("seed one workspace between them", async () => {
    const other = await createTestDb();
    try {
      const results = await Promise.all([
        seedDemo(other.db, { users: 20, conversations: 5 }),
        seedDemo(other.db, { users: 20, conversations: 5 }),
      ]);
      expect(results.filter((r) => r !== null)).toHaveLength(1);
      expect(await other.db.app.count()).toBe(1);
      expect(await other.db.user.count()).toBe(20);
    } finally {
      await other.close();
    }
  });
});

describe("the demo plan", () => {
  it("is the same for the same seed and time", () => {
    const plan = () => {
      const rnd = new Random(7);
      const users = planUsers(rnd, now, 40);
      const conversations = planConversations(rnd, now, users, 10);
      return { users, conversations, events: planEvents(rnd, users) };
    };
    expect(plan()).toEqual(plan());
  });
});
