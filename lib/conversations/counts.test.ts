import { describe, expect } from "vitest";
import { Prisma } from "../db/generated/client";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";
import { makeAdmin, makeApp, makeUser } from "../testing/factories";
import { client } from "../testing/http";
import { ok, startConversation, type Json } from "./testing";

/** The counts as a scan of the conversations reads them: the oracle for the trigger-kept counters. */
async function scanned(s: TestServer, appId: bigint, admin: bigint) {
  const rows = await s.db.$queryRaw<{ ch: bigint; k: string; n: number }[]>(Prisma.sql`
    SELECT COALESCE(channel_id, 0) AS ch, k, count(*)::int AS n FROM (
      SELECT channel_id, unnest(ARRAY[
        CASE WHEN closed THEN 'closed' WHEN delayed_until > now() THEN 'delayed' ELSE 'open' END,
        CASE WHEN NOT closed AND NOT COALESCE(delayed_until > now(), false) AND assignee_id = ${admin}
          THEN 'mine' END,
        CASE WHEN NOT closed AND NOT COALESCE(delayed_until > now(), false) AND assignee_id IS NULL
          THEN 'unassigned' END]) AS k
      FROM conversations WHERE app_id = ${appId} AND has_user_replies AND assistant_type IS NULL
    ) x WHERE k IS NOT NULL GROUP BY 1, 2`);
  const out = new Map<number, Record<string, number>>();
  for (const r of rows) {
    const e = out.get(Number(r.ch)) ?? { open: 0, closed: 0, delayed: 0, mine: 0, unassigned: 0 };
    e[r.k] = r.n;
    out.set(Number(r.ch), e);
  }
  return out;
}

async function expectCountsMatch(s: TestServer, a: TestApp, admin: bigint) {
  const api = ok(await a.api.get(`/api/apps/${a.app.id}/conversations/counts?admin=${admin}`));
  const want = await scanned(s, a.app.id, admin);
  const zero = { open: 0, closed: 0, delayed: 0, mine: 0, unassigned: 0 };
  for (const ch of api.channels as Json[]) {
    const { id, ...counts } = ch;
    expect({ id, ...counts }).toEqual({ id, ...(want.get(Number(id)) ?? zero) });
  }
  const sum = (k: string) => [...want.values()].reduce((t, e) => t + (e[k] ?? 0), 0);
  expect(api).toMatchObject({
    open: sum("open"),
    closed: sum("closed"),
    delayed: sum("delayed"),
    mine: sum("mine"),
    unassigned: sum("unassigned"),
  });
}

/** A small seeded generator: a failure replays the same operations. */
function rng(seed: number) {
  let x = seed;
  return (n: number) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
}

describe("the Inbox counters", () => {
  it("equal a scan of the conversations through every kind of state change", async ({
    server: s,
    app: a,
  }) => {
    const ops = [a.admin.id, (await makeAdmin(s.db, { appId: a.app.id })).id];
    const second = await s.db.channel.create({ data: { appId: a.app.id, name: "Second" } });
    const channels = [undefined, a.channel.id, second.id];
    const pick = rng(20261125);
    const convs: bigint[] = [];
    const act = (id: bigint, what: string, form: Record<string, string> = {}) =>
      a.api.postForm(`/api/conversations/${id}/${what}`, form).then(ok);
    const now = () => Math.floor(Date.now() / 1000);
    for (let i = 0; i < 120; i++) {
      const op = convs.length < 4 ? 0 : pick(10);
      const id = convs[pick(convs.length)]!;
      const channel = channels[pick(channels.length)];
      const user = op < 2 ? await makeUser(s.db, a.app.id) : undefined;
      const ch: Record<string, string> = channel === undefined ? {} : { channel: String(channel) };
      if (op === 0) {
        convs.push(
          BigInt(
            ok(await a.api.postForm(`/api/users/${user!.id}/startconversation`, { body: "hi", ...ch }))
              .id as number,
          ),
        );
      } else if (op === 1) {
        // An operator's message stays out of the Inbox (and its counts) until the visitor answers.
        convs.push(
          BigInt(
            ok(await a.api.postForm(`/api/users/${user!.id}/sendmessage`, { body: "hello", ...ch }))
              .id as number,
          ),
        );
      } else if (op === 2) await act(id, "reply", { body: "visitor", from_user: "default_user" });
      else if (op === 3) await act(id, "assign", { admin: pick(3) === 0 ? "" : String(ops[pick(2)]) });
      else if (op === 4) await act(id, "close");
      else if (op === 5) await act(id, "reopen");
      else if (op === 6) await act(id, "delay", { until: String(now() + 3600) });
      else if (op === 7) await act(id, "delay", { cancel: "true" });
      else if (op === 8) await act(id, "reply", { body: "operator", auto_assign: String(ops[pick(2)]) });
      else await act(id, "tag", { tag: `t${pick(3)}`, action: pick(2) ? "add" : "delete" });
      if (i % 20 === 19) for (const admin of ops) await expectCountsMatch(s, a, admin);
    }
    // A snooze that has run out counts as open at once, before the sweeper clears it.
    const open = (
      await s.db.conversation.findMany({
        where: { appId: a.app.id, closed: false, hasUserReplies: true },
        select: { id: true },
      })
    )[0]!;
    await act(open.id, "delay", { until: String(Date.now() / 1000 + 1.2) });
    await expectCountsMatch(s, a, ops[0]!);
    // Once it has run out by the database's clock, the one both the counts and the scan read (or been cleared).
    await expect
      .poll(
        async () =>
          (
            await s.db.$queryRaw<{ out: boolean }[]>`
              SELECT COALESCE(delayed_until <= now(), true) AS out FROM conversations WHERE id = ${open.id}`
          )[0]?.out,
        { timeout: 10_000 },
      )
      .toBe(true);
    await expectCountsMatch(s, a, ops[0]!);
  });

  it("leave nothing behind when the app goes", async ({ server: s }) => {
    const gone = await makeApp(s.db);
    const u = await makeUser(s.db, gone.app.id);
    ok(await client(s, gone.token).postForm(`/api/users/${u.id}/startconversation`, { body: "hi" }));
    expect(await s.db.conversationCount.count({ where: { appId: gone.app.id } })).toBe(1);
    await s.db.app.delete({ where: { id: gone.app.id } });
    expect(await s.db.conversationCount.count({ where: { appId: gone.app.id } })).toBe(0);
  });

  it("moves a conversation between tabs as its state changes", async ({ server: s }) => {
    const fresh = await makeApp(s.db);
    const fc = client(s, fresh.token);
    const one = await startConversation(fc, s.db, fresh.app.id);
    const counts = async () => ok(await fc.get(`/api/apps/${fresh.app.id}/conversations/counts`));
    expect(await counts()).toMatchObject({ open: 1, unassigned: 1, mine: 0 });
    ok(await fc.postForm(`/api/conversations/${one.id}/assign`, { admin: String(fresh.admin.id) }));
    expect(await counts()).toMatchObject({ open: 1, unassigned: 0, mine: 1 });
    ok(await fc.postForm(`/api/conversations/${one.id}/close`));
    expect(await counts()).toMatchObject({ open: 0, closed: 1, mine: 0 });
  });
});
