import { describe, expect } from "vitest";
import { Prisma } from "../db/generated/client";
import { it, type TestApp } from "../testing/fixture";
import { makeAdmin, makeUser, unique } from "../testing/factories";
import type { TestServer } from "../testing/server";
import { ok } from "../conversations/testing";
import { expectedReports, type Filters, type Hist } from "./expected";
import { REPORT_SERIES } from "./schemas";
import { rng } from "./testing";

/**
 * The reports' facts and rollups (migration *_report_rollups) as the product's write paths keep them: every
 * series through the API equals the reports recomputed from the raw parts, and the trigger-kept rows equal a
 * rebuild from the parts. A zone 5:45 from UTC: the rollups' quarter hours must add up to its days and hours.
 */
const TZ = "Asia/Kathmandu";
const onPg = process.env.DATABASE_URL?.startsWith("postgres") ?? false;

it.beforeAll(async ({ app: a }) => {
  ok(await a.api.postForm(`/api/apps/${a.app.id}/settings`, { time_zone: TZ }));
}, 180_000);

/** The app's history read back from the tables, instants to the microsecond. */
async function historyOf(s: TestServer, appId: bigint): Promise<Hist> {
  const ms = (col: string) => Prisma.raw(`(extract(epoch FROM ${col}) * 1000)::float8`);
  const convs = await s.db.$queryRaw<{ id: bigint; at: number; ch: bigint | null; asg: bigint | null }[]>`
    SELECT id, ${ms("created")} AS at, channel_id AS ch, assignee_id AS asg FROM conversations
    WHERE app_id = ${appId}`;
  const parts = await s.db.$queryRaw<
    { id: bigint; conv: bigint; type: string; at: number; admin: bigint | null; asg: bigint | null }[]
  >`
    SELECT id, conversation_id AS conv, type, ${ms("created")} AS at, from_admin_id AS admin, assignee_id AS asg
    FROM conversation_parts WHERE app_id = ${appId}`;
  // The API creates conversations unassigned and assigns them with `assigned` parts: one without any has the
  // assignee it was created with.
  const reassigned = new Set(parts.filter((p) => p.type === "assigned").map((p) => p.conv));
  const users = await s.db.$queryRaw<{ at: number; lead: boolean }[]>`
    SELECT ${ms("created")} AS at, is_lead AS lead FROM users WHERE app_id = ${appId}`;
  const admins = await s.db.admin.findMany({
    where: { memberships: { some: { appId } } },
    select: { id: true, name: true },
  });
  return {
    tz: TZ,
    admins,
    channels: [],
    convs: convs.map((c) => ({
      id: c.id,
      created: c.at,
      channel: c.ch,
      assignee: reassigned.has(c.id) ? null : c.asg,
    })),
    parts: parts.map((p) => ({
      conv: p.conv,
      type: p.type,
      at: p.at,
      admin: p.admin,
      id: p.id,
      assignee: p.asg,
    })),
    users: users.map((u) => ({ created: u.at, lead: u.lead })),
  };
}

const settle = (v: unknown): unknown =>
  typeof v === "number" && !Number.isInteger(v)
    ? Math.round(v * 1e3) / 1e3
    : Array.isArray(v)
      ? v.map(settle)
      : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, settle(x)]))
        : v;

async function expectReportsMatch(s: TestServer, a: TestApp, f: Filters) {
  const want = expectedReports(await historyOf(s, a.app.id), f);
  for (const series of REPORT_SERIES) {
    const q: Record<string, string> = { from: f.from, to: f.to };
    if (f.operator !== undefined) q.operator = String(f.operator);
    if (f.channel !== undefined) q.channel = String(f.channel);
    const got = ok(await a.api.get(`/api/apps/${a.app.id}/reports/${series}`, q));
    expect(settle(got.series), `${series} ${JSON.stringify(q)}`).toEqual(settle(want[series]));
  }
}

/** The trigger-kept rows of an app, in a comparable order. */
async function kept(s: TestServer, appId: bigint) {
  return {
    facts: await s.db.conversationFact.findMany({ where: { appId }, orderBy: { conversationId: "asc" } }),
    closes: await s.db.conversationClose.findMany({ where: { appId }, orderBy: { partId: "asc" } }),
    replies: await s.db.conversationAdminReply.findMany({
      where: { appId },
      orderBy: [{ conversationId: "asc" }, { adminId: "asc" }],
    }),
    // Buckets emptied by a delete stay as zeros; a rebuild has none.
    quarters: (await s.db.reportQuarter.findMany({ where: { appId }, orderBy: { at: "asc" } })).filter(
      (q) => q.started || q.closed || q.messages,
    ),
    filterQuarters: (
      await s.db.reportFilterQuarter.findMany({
        where: { appId },
        orderBy: [{ assigneeId: "asc" }, { channelId: "asc" }, { at: "asc" }],
      })
    ).filter((q) => q.started || q.closed || q.messages),
    leadQuarters: (await s.db.leadQuarter.findMany({ where: { appId }, orderBy: { at: "asc" } })).filter(
      (q) => q.leads,
    ),
  };
}

const day = (t: number) => new Intl.DateTimeFormat("en-CA", { timeZone: TZ }).format(new Date(t));

describe("report facts and rollups kept by the write paths", () => {
  it("match the raw parts after every kind of change through the API, and a rebuild", async ({
    server: s,
    app: a,
  }) => {
    const ops = [a.admin.id, (await makeAdmin(s.db, { appId: a.app.id })).id];
    const second = await s.db.channel.create({ data: { appId: a.app.id, name: unique("Channel") } });
    const channels = [undefined, a.channel.id, second.id];
    // Routing assigns visitors' new conversations with an `assigned` part written with their first message: the
    // start then counts for that operator (the first owner), whoever has the conversation later.
    ok(await a.api.postJson(`/api/apps/${a.app.id}/routing`, { routing: "round_robin" }));
    const rand = rng(20261126);
    const pick = (n: number) => Math.floor(rand() * n);
    const convs: bigint[] = [];
    const act = (id: bigint, what: string, form: Record<string, string> = {}) =>
      a.api.postForm(`/api/conversations/${id}/${what}`, form).then(ok);
    for (let i = 0; i < 90; i++) {
      const op = convs.length < 4 ? pick(2) : pick(10);
      const id = convs[pick(convs.length)]!;
      const channel = channels[pick(channels.length)];
      const ch: Record<string, string> = channel === undefined ? {} : { channel: String(channel) };
      const admin = String(ops[pick(2)]);
      if (op < 2) {
        const user = await makeUser(s.db, a.app.id);
        // Started by the visitor, or by an operator (answered before anyone asked).
        const what = op === 0 ? "startconversation" : "sendmessage";
        const made = ok(await a.api.postForm(`/api/users/${user.id}/${what}`, { body: "hi", ...ch }));
        convs.push(BigInt(made.id as number));
      } else if (op < 4) await act(id, "reply", { body: "visitor", from_user: "default_user" });
      else if (op === 4) await act(id, "reply", { body: "operator", from_admin: admin });
      else if (op === 5) await act(id, "reply", { body: "auto", auto_assign: admin });
      else if (op === 6) await act(id, "assign", { admin: pick(3) === 0 ? "" : admin });
      else if (op === 7) await act(id, "close");
      else if (op === 8) await act(id, "reopen");
      else await act(id, "reply", { body: "note", type: "note", from_admin: admin });
    }
    // Lead flips (users_report_leads): visitors who become leads and stop being one, a lead whose creation
    // moves (to yesterday), a lead who goes; heartbeats and props change no lead and must change nothing.
    const people = [];
    for (let i = 0; i < 6; i++) people.push(await makeUser(s.db, a.app.id));
    const anon = await s.db.user.create({ data: { appId: a.app.id } });
    await s.db.user.update({ where: { id: anon.id }, data: { email: `${unique("e")}@example.com` } });
    await s.db.user.update({ where: { id: anon.id }, data: { email: null } });
    await s.db.user.update({ where: { id: anon.id }, data: { name: "Lead again" } });
    await s.db.user.update({
      where: { id: people[0]!.id },
      data: { created: new Date(Date.now() - 86_400_000) },
    });
    await s.db.user.delete({ where: { id: people[1]!.id } });
    await s.db.user.update({
      where: { id: people[2]!.id },
      data: { lastHeartbeat: new Date(), presence: "online", propsCustom: { plan: "pro" } },
    });
    const today = day(Date.now());
    const f = { from: day(Date.now() - 86_400_000), to: today };
    await expectReportsMatch(s, a, f);
    await expectReportsMatch(s, a, { ...f, operator: ops[1]! });
    await expectReportsMatch(s, a, { ...f, channel: second.id });
    await expectReportsMatch(s, a, { ...f, operator: ops[0]!, channel: a.channel.id });
    const w = expectedReports(await historyOf(s, a.app.id), f);
    const routed = { appId: a.app.id, type: "assigned", fromAdminId: null, assigneeId: { not: null } };
    expect(await s.db.conversationPart.count({ where: routed }), "routed").toBeGreaterThan(3);
    expect(w.response_times.reduce((n, d) => n + d.first_response_count, 0)).toBeGreaterThan(3);
    expect(w.conversations.reduce((n, d) => n + d.closed, 0)).toBeGreaterThan(3);

    const before = await kept(s, a.app.id);
    await s.db.$executeRaw`SELECT relay_rebuild_reports(${a.app.id})`;
    expect(before).toEqual(await kept(s, a.app.id));

    // Deletes (no API deletes conversations or parts yet): a conversation with its parts, a visitor's first
    // message (the question moves, and with it the answer), an answer, a close.
    await s.db.conversation.delete({ where: { id: convs[0]! } });
    for (const type of ["reply_user", "reply_admin", "closed"]) {
      const p = await s.db.conversationPart.findFirstOrThrow({
        where: { appId: a.app.id, type },
        orderBy: { id: "asc" },
      });
      await s.db.conversationPart.delete({ where: { id: p.id } });
    }
    // A visitor's message moved to another conversation (other assignee and channel), a lead who stops being one.
    const moved = await s.db.conversationPart.findFirstOrThrow({
      where: { appId: a.app.id, type: "reply_user", conversationId: { not: convs[1]! } },
      orderBy: { id: "desc" },
    });
    await s.db.conversationPart.update({ where: { id: moved.id }, data: { conversationId: convs[1]! } });
    await s.db.user.update({ where: { id: anon.id }, data: { name: null } });
    await expectReportsMatch(s, a, f);
    await expectReportsMatch(s, a, { ...f, operator: ops[1]! });
    await expectReportsMatch(s, a, { ...f, channel: second.id });
    const after = await kept(s, a.app.id);
    await s.db.$executeRaw`SELECT relay_rebuild_reports(${a.app.id})`;
    expect(after).toEqual(await kept(s, a.app.id));
  }, 240_000);

  it("leave nothing behind when the app goes", async ({ other, server: s }) => {
    const u = await makeUser(s.db, other.app.id);
    const id = ok(await other.api.postForm(`/api/users/${u.id}/startconversation`, { body: "q" }))
      .id as number;
    ok(await other.api.postForm(`/api/conversations/${id}/reply`, { body: "a" }));
    ok(await other.api.postForm(`/api/conversations/${id}/close`));
    const rows = async () => Object.values(await kept(s, other.app.id)).reduce((n, xs) => n + xs.length, 0);
    expect(await rows()).toBeGreaterThanOrEqual(4);
    await s.db.app.delete({ where: { id: other.app.id } });
    expect(await rows()).toBe(0);
  });

  it("answer the earliest of two operators replying at once", async ({ server: s, app: a }) => {
    const user = await makeUser(s.db, a.app.id);
    const id = BigInt(
      ok(await a.api.postForm(`/api/users/${user.id}/startconversation`, { body: "q" })).id as number,
    );
    const other = await makeAdmin(s.db, { appId: a.app.id });
    await Promise.all(
      [a.admin.id, other.id].map((op) =>
        a.api.postForm(`/api/conversations/${id}/reply`, { body: "a", from_admin: String(op) }).then(ok),
      ),
    );
    const first = await s.db.conversationPart.findFirstOrThrow({
      where: { conversationId: id, type: "reply_admin" },
      orderBy: [{ created: "asc" }, { id: "asc" }],
    });
    const facts = await s.db.conversationFact.findUniqueOrThrow({ where: { conversationId: id } });
    expect({ at: facts.answeredAt, part: facts.answerId, by: facts.responderId }).toEqual({
      at: first.created,
      part: first.id,
      by: first.fromAdminId,
    });
  });

  // Writers outside the app's conversation lock: the later-committed but earlier reply must still win.
  it.runIf(onPg)(
    "keep the earliest first response whichever racing insert commits first",
    async ({ server: s, app: a }) => {
      for (const earlierFirst of [true, false]) {
        const conv = await s.db.conversation.create({
          data: { appId: a.app.id, userId: (await makeUser(s.db, a.app.id)).id },
        });
        const t0 = Date.now() - 60_000;
        const part = (tx: Prisma.TransactionClient, type: string, at: number) =>
          tx.conversationPart.create({
            data: {
              conversationId: conv.id,
              appId: a.app.id,
              created: new Date(at),
              type,
              direction: "a2u",
              partGroup: 0n,
              fromAdminId: a.admin.id,
            },
          });
        await part(s.db, "reply_user", t0);
        const [firstAt, secondAt] = earlierFirst ? [t0 + 1000, t0 + 2000] : [t0 + 2000, t0 + 1000];
        let release!: () => void;
        const gate = new Promise<void>((r) => (release = r));
        let inserted!: () => void;
        const holding = new Promise<void>((r) => (inserted = r));
        const t1 = s.db.$transaction(async (tx) => {
          await part(tx, "reply_admin", firstAt);
          inserted();
          await gate;
        });
        await holding;
        const t2 = s.db.$transaction((tx) => part(tx, "reply_admin", secondAt));
        // Once t2 waits on the facts row t1 updated, t1 commits under it.
        await expect
          .poll(
            async () =>
              (
                await s.db.$queryRaw<{ n: number }[]>`
                  SELECT count(*)::int AS n FROM pg_stat_activity
                  WHERE datname = current_database() AND wait_event_type = 'Lock'`
              )[0]!.n,
            { timeout: 10_000 },
          )
          .toBeGreaterThan(0);
        release();
        await Promise.all([t1, t2]);
        const facts = await s.db.conversationFact.findUniqueOrThrow({ where: { conversationId: conv.id } });
        expect(facts.answeredAt?.getTime(), `earlier first: ${earlierFirst}`).toBe(t0 + 1000);
      }
    },
  );
});
