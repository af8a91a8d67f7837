import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { makeAdmin, makeUser } from "../testing/factories";
import type { TestServer } from "../testing/server";
import { ok } from "../conversations/testing";

/**
 * The operator filter and the per-operator figures follow who did the work at the time (#40): known work by A
 * and B on one day, then every conversation reassigned to B through the API; that day's figures must not move.
 */
const DAY = "2026-01-10"; // a Saturday: ISO weekday 6
const at = (hhmm: string) => new Date(`${DAY}T${hhmm}:00Z`);

async function history(s: TestServer, a: TestApp) {
  const A = a.admin.id;
  const B = (await makeAdmin(s.db, { appId: a.app.id, name: "Bea" })).id;
  const user = await makeUser(s.db, a.app.id);
  const conv = async (created: string, assignee: bigint | null) =>
    (
      await s.db.conversation.create({
        data: { appId: a.app.id, userId: user.id, created: at(created), assigneeId: assignee },
      })
    ).id;
  const part = (id: bigint, type: string, created: string, admin: bigint | null = null, assignee?: bigint) =>
    s.db.conversationPart.create({
      data: {
        conversationId: id,
        appId: a.app.id,
        created: at(created),
        type,
        direction: type === "reply_user" ? "u2a" : "a2u",
        fromAdminId: admin,
        assigneeId: assignee ?? null,
        partGroup: 0n,
      },
    });
  // 1: A's from the start, answered and closed by A.
  const c1 = await conv("10:00", A);
  await part(c1, "reply_user", "10:05");
  await part(c1, "reply_admin", "10:10", A);
  await part(c1, "closed", "10:20", A);
  // 2: A's, but B answers and closes it.
  const c2 = await conv("11:00", A);
  await part(c2, "reply_user", "11:01");
  await part(c2, "reply_admin", "11:05", B);
  await part(c2, "closed", "11:30", B);
  // 3: unassigned at first (its first message counts for no one), then assigned to A as routing does.
  const c3 = await conv("12:00", null);
  await part(c3, "reply_user", "12:01");
  await part(c3, "assigned", "12:02", null, A);
  await s.db.conversation.update({ where: { id: c3 }, data: { assigneeId: A } });
  await part(c3, "reply_user", "12:03");
  await part(c3, "reply_admin", "12:04", A);
  await part(c3, "closed", "12:10", A);
  return { A, B, convs: [c1, c2, c3] };
}

async function figures(a: TestApp, operator: bigint) {
  const q = { from: DAY, to: DAY, operator: String(operator) };
  const get = async (series: string) =>
    ok(await a.api.get(`/api/apps/${a.app.id}/reports/${series}`, q)) as Record<string, unknown>;
  const conversations = (await get("conversations")).series;
  const times = await get("response_times");
  const hours = ((await get("busiest_hours")).series as { weekday: number; hour: number; messages: number }[])
    .filter((x) => x.messages > 0)
    .map((x) => [x.weekday, x.hour, x.messages]);
  const operators = (await get("operators")).series;
  return { conversations, summary: times.summary, hours, operators };
}

describe("reports attribute the work to who did it at the time", () => {
  it("a reassignment leaves past figures as they were, and a rebuild agrees", async ({
    server: s,
    app: a,
  }) => {
    ok(await a.api.postForm(`/api/apps/${a.app.id}/settings`, { time_zone: "UTC" }));
    const { A, B, convs } = await history(s, a);
    const wantA = {
      // Started: the three it first owned; closed: the two A closed (B closed the second).
      conversations: [{ day: DAY, started: 3, closed: 2 }],
      summary: {
        first_response: { count: 2, median: 240, average: 240 }, // 300 s and 180 s
        close: { count: 2, median: 900, average: 900 }, // 1200 s and 600 s
      },
      // The visitor's messages while A had the conversation: not 12:01, when it was no one's.
      hours: [
        [6, 10, 1],
        [6, 11, 1],
        [6, 12, 1],
      ],
      operators: [
        {
          admin: Number(A),
          name: a.admin.name,
          conversations: 2,
          replies: 2,
          first_response_count: 2,
          first_response_median: 240,
        },
      ],
    };
    const wantB = {
      conversations: [{ day: DAY, started: 0, closed: 1 }],
      summary: {
        first_response: { count: 1, median: 240, average: 240 },
        close: { count: 1, median: 1800, average: 1800 },
      },
      hours: [],
      operators: [
        {
          admin: Number(B),
          name: "Bea",
          conversations: 1,
          replies: 1,
          first_response_count: 1,
          first_response_median: 240,
        },
      ],
    };
    expect(await figures(a, A)).toEqual(wantA);
    expect(await figures(a, B)).toEqual(wantB);

    for (const id of convs) ok(await a.api.postForm(`/api/conversations/${id}/assign`, { admin: String(B) }));
    expect(await s.db.conversation.count({ where: { id: { in: convs }, assigneeId: B } }), "reassigned").toBe(
      3,
    );
    expect(await figures(a, A)).toEqual(wantA);
    expect(await figures(a, B)).toEqual(wantB);

    // The rows the triggers kept are what a rebuild computes from the parts.
    await s.db.$executeRaw`SELECT relay_rebuild_reports(${a.app.id})`;
    expect(await figures(a, A)).toEqual(wantA);
    expect(await figures(a, B)).toEqual(wantB);
  });
});
