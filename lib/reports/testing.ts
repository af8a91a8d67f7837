import type { Db } from "../db/client";
import { makeAdmin, makeUser, unique } from "../testing/factories";
import type { TestApp } from "../testing/fixture";
import type { TestServer } from "../testing/server";
import type { Hist } from "./expected";
import { Random } from "../demo/random";
/** The demo's seeded generator (mulberry32), so that a failing seed can be replayed. */
export function rng(seed: number): () => number {
  const r = new Random(seed);
  return () => r.next();
}

const MIN = 60_000;

/**
 * A randomized history written straight to the tables with chosen timestamps (the API stamps parts with now()),
 * which expected.ts recomputes every report from.
 */
export async function writeHistory(
  db: Db,
  o: { appId: bigint; tz: string; admins: { id: bigint; name: string }[]; channels: bigint[] },
  rand: () => number,
  span: { start: number; end: number; conversations: number },
): Promise<Hist> {
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const at = () => span.start + Math.floor(rand() * (span.end - span.start));
  const users: Hist["users"] = [];
  for (let i = 0; i < span.conversations; i++) {
    // Half carry an email, which makes them leads by the lead rule (the database's trigger decides).
    const u = await db.user.create({
      data: {
        appId: o.appId,
        userId: unique("u"),
        email: rand() < 0.5 ? `${unique("l")}@x.test` : null,
        created: new Date(at()),
      },
      select: { id: true, created: true, isLead: true },
    });
    users.push({ created: u.created.getTime(), lead: u.isLead });
  }
  const h: Hist = { tz: o.tz, admins: o.admins, channels: o.channels, convs: [], parts: [], users };
  const ids = await db.user.findMany({ where: { appId: o.appId }, select: { id: true } });
  for (let i = 0; i < span.conversations; i++) {
    const created = at();
    const c = await db.conversation.create({
      data: {
        appId: o.appId,
        userId: ids[i % ids.length]!.id,
        created: new Date(created),
        channelId: rand() < 0.2 ? null : pick(o.channels),
        assigneeId: rand() < 0.25 ? null : pick(o.admins).id,
      },
    });
    h.convs.push({ id: c.id, created, channel: c.channelId, assignee: c.assigneeId });
    let t = created;
    const steps: [string, bigint | null][] = [];
    if (rand() < 0.2) steps.push(["reply_admin", pick(o.admins).id]);
    const rounds = rand() < 0.1 ? 0 : 1 + Math.floor(rand() * 3);
    for (let k = 0; k < rounds; k++) {
      steps.push(["reply_user", null]);
      if (rand() < 0.3) steps.push(["reply_user", null]);
      if (rand() < 0.8) steps.push(["reply_admin", pick(o.admins).id]);
      if (rand() < 0.3) steps.push(["note", pick(o.admins).id]);
      if (rand() < 0.6) steps.push(["closed", pick(o.admins).id]);
    }
    for (const [type, admin] of steps) {
      // Mostly minutes apart, sometimes the same millisecond or days later (across the range's ends).
      const r = rand();
      t += r < 0.05 ? 0 : r < 0.9 ? Math.floor(rand() * 180 * MIN) : Math.floor(rand() * 4 * 1440 * MIN);
      const p = await db.conversationPart.create({
        data: {
          conversationId: c.id,
          appId: o.appId,
          created: new Date(t),
          type,
          direction: type === "reply_user" ? "u2a" : "a2u",
          fromAdminId: admin,
          partGroup: 0n,
        },
      });
      h.parts.push({ conv: c.id, type, at: t, admin, id: p.id });
    }
  }
  return h;
}

export const BREAKDOWN_DAY = "2026-01-12";
const atOf = (hhmm: string) => new Date(`${BREAKDOWN_DAY}T${hhmm}:00Z`);

/** Four conversations of one day: two channels and none, tags billing and vip, two operators. */
export async function breakdownHistory(s: TestServer, a: TestApp) {
  const A = a.admin.id;
  const B = (await makeAdmin(s.db, { appId: a.app.id })).id;
  const X = await s.db.channel.create({ data: { appId: a.app.id, name: "Email desk" } });
  const Y = await s.db.channel.create({ data: { appId: a.app.id, name: unique("Chat") } });
  const user = await makeUser(s.db, a.app.id);
  const conv = async (created: string, channel: bigint | null, assignee: bigint | null, tags: string[]) =>
    (
      await s.db.conversation.create({
        data: {
          appId: a.app.id,
          userId: user.id,
          created: atOf(created),
          channelId: channel,
          assigneeId: assignee,
          tags,
        },
      })
    ).id;
  const part = (id: bigint, type: string, created: string, admin: bigint | null = null) =>
    s.db.conversationPart.create({
      data: {
        conversationId: id,
        appId: a.app.id,
        created: atOf(created),
        type,
        direction: type === "reply_user" ? "u2a" : "a2u",
        fromAdminId: admin,
        partGroup: 0n,
      },
    });
  const c1 = await conv("10:00", X.id, A, ["billing", "vip"]);
  await part(c1, "reply_user", "10:05");
  await part(c1, "reply_admin", "10:10", A); // 300 s
  await part(c1, "closed", "10:20", A);
  const c2 = await conv("11:00", X.id, A, ["billing"]);
  await part(c2, "reply_user", "11:01");
  await part(c2, "reply_admin", "11:05", B); // 240 s
  const c3 = await conv("12:00", Y.id, B, []);
  await part(c3, "reply_user", "12:00");
  await part(c3, "reply_admin", "12:01", A); // 60 s
  await part(c3, "closed", "12:30", B);
  await conv("13:00", null, null, ["vip"]);
  return { A, B, X, Y };
}
