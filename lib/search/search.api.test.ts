import crypto from "node:crypto";
import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import type { Client } from "../testing/http";
import { makeUser } from "../testing/factories";
import { fails, ok, startConversation } from "../conversations/testing";
import { sqlOf } from "../db/sql";
import type { ConversationHit, Highlight, LeadHit, MessageHit, SearchResult } from "./schemas";
import { RECENT_WINDOW, USERS_CAP, usersStatement } from "./statements";

/** A word no other test writes: letters and digits only, as the full-text parser keeps it whole. */
const word = () => `w${crypto.randomBytes(5).toString("hex")}`;
const marked = (h: Highlight) => h.filter((x) => x.match).map((x) => x.text.toLowerCase());

async function search(
  a: TestApp,
  params: Record<string, string>,
  c: Client = a.api,
  appId = a.app.id,
): Promise<SearchResult> {
  return ok(await c.get(`/api/apps/${appId}/search`, params)) as unknown as SearchResult;
}

describe("GET /apps/{id}/search", () => {
  it("finds replies and notes by their words, marks them, and never another app's", async ({
    server: s,
    app: a,
    other: b,
  }) => {
    const w = word();
    const conv = await startConversation(a.api, s.db, a.app.id, "Opening line");
    ok(await a.api.postForm(`/api/conversations/${conv.id}/reply`, { body: `The ${w} is broken again` }));
    ok(
      await a.api.postForm(`/api/conversations/${conv.id}/reply`, {
        body: `Internal: ${w} known`,
        type: "note",
      }),
    );
    const theirs = await startConversation(b.api, s.db, b.app.id, `Their ${w} too`);

    const found = await search(a, { q: w });
    expect(found.messages.map((m) => [m.part_type, String(m.conversation_id)])).toEqual([
      ["note", String(conv.id)],
      ["reply_admin", String(conv.id)],
    ]);
    for (const m of found.messages) expect(marked(m.highlight)).toEqual([w]);
    expect(found.messages[0]!.highlight.map((x) => x.text).join("")).toBe(`Internal: ${w} known`);
    expect(found.messages.some((m) => String(m.conversation_id) === String(theirs.id))).toBe(false);

    // As one types: the last word is a prefix; earlier words must match whole.
    expect((await search(a, { q: w.slice(0, 6) })).messages.length).toBeGreaterThanOrEqual(2);
    expect((await search(a, { q: `broken ${w.slice(0, 6)}` })).messages.map((m) => m.part_type)).toEqual([
      "reply_admin",
    ]);
    // The other app's own token finds its own message, and ours is refused there.
    expect(
      (await search(a, { q: w }, b.api, b.app.id)).messages.map((m) => String(m.conversation_id)),
    ).toEqual([String(theirs.id)]);
    fails(await a.api.get(`/api/apps/${b.app.id}/search`, { q: w }), 403, "PermissionDenied");
  });

  it("finds conversations and leads by the visitor's name, email, phone and user ID", async ({
    server: s,
    app: a,
    other: b,
  }) => {
    const w = word();
    const user = await makeUser(s.db, a.app.id, {
      userId: `ext-${w}-id`,
      name: `Ana ${w}name`,
      email: `${w}@mail.example`,
    });
    // "z" is no hex digit: the phone's query never continues the word in the name, email or user ID (with "99" it
    // did once in 256 runs, and matched the name first).
    await s.db.user.update({ where: { id: user.id }, data: { phone: `+44 ${w.slice(1, 7)}z9` } });
    const conv = ok(await a.api.postForm(`/api/users/${user.id}/startconversation`, { body: "Hello" }));
    await makeUser(s.db, b.app.id, {
      userId: `ext-${w}-id`,
      name: `Ana ${w}name`,
      email: `${w}@mail.example`,
    });

    const cases: [string, string][] = [
      [`${w}name`, "name"],
      [`${w}@mail`, "email"],
      [`${w.slice(1, 7)}z9`, "phone"],
      [`ext-${w}`, "user_id"],
    ];
    for (const [q, field] of cases) {
      const r = await search(a, { q, kind: "all" });
      expect(
        r.conversations.map((c: ConversationHit) => [String(c.conversation_id), c.field]),
        q,
      ).toEqual([[String(conv.id), field]]);
      expect(
        r.leads.map((l: LeadHit) => [String(l.id), l.field]),
        q,
      ).toEqual([[String(user.id), field]]);
      expect(marked(r.leads[0]!.highlight)).toEqual([q.toLowerCase()]);
    }
    // kind=conversations leaves leads out; kind=leads leaves conversations and messages out.
    const convOnly = await search(a, { q: `${w}name` });
    expect([convOnly.conversations.length, convOnly.leads.length]).toEqual([1, 0]);
    const leadsOnly = await search(a, { q: `${w}name`, kind: "leads" });
    expect([leadsOnly.conversations.length, leadsOnly.leads.length]).toEqual([0, 1]);
  });

  it("looks short queries up by prefix of email, phone and user ID only", async ({ server: s, app: a }) => {
    const w = word();
    const user = await makeUser(s.db, a.app.id, { userId: `Q${w}`, name: `Qa${w}` });
    const r = await search(a, { q: "Q", kind: "leads", limit: "50" });
    expect(r.leads.some((l) => String(l.id) === String(user.id) && l.field === "user_id")).toBe(true);
    // The name holds "a<w>" but a two-letter query does not look into names.
    const byName = await search(a, { q: "Qa", kind: "leads", limit: "50" });
    expect(byName.leads.some((l) => String(l.id) === String(user.id))).toBe(false);
  });

  it("applies the state, assignee and date filters, and pages messages with the cursor", async ({
    server: s,
    app: a,
  }) => {
    const w = word();
    const open = await startConversation(a.api, s.db, a.app.id, `Open ${w}`);
    const closed = await startConversation(a.api, s.db, a.app.id, `Closed ${w}`);
    ok(await a.api.postForm(`/api/conversations/${closed.id}/close`, {}));
    ok(await a.api.postForm(`/api/conversations/${open.id}/assign`, { admin: String(a.admin.id) }));
    const ids = (r: SearchResult) => r.messages.map((m: MessageHit) => String(m.conversation_id));

    expect(ids(await search(a, { q: w, state: "open" }))).toEqual([String(open.id)]);
    expect(ids(await search(a, { q: w, state: "closed" }))).toEqual([String(closed.id)]);
    expect(ids(await search(a, { q: w, assignee: String(a.admin.id) }))).toEqual([String(open.id)]);
    expect(ids(await search(a, { q: w, assignee: "0" }))).toEqual([String(closed.id)]);
    const now = Math.floor(Date.now() / 1000);
    expect(ids(await search(a, { q: w, from: String(now + 3600) }))).toEqual([]);
    expect(ids(await search(a, { q: w, from: String(now - 3600), to: String(now + 3600) })).sort()).toEqual(
      [String(open.id), String(closed.id)].sort(),
    );

    const first = await search(a, { q: w, limit: "1" });
    expect(first.next_cursor).not.toBeNull();
    const second = await search(a, { q: w, limit: "1", cursor: first.next_cursor! });
    expect(second.next_cursor).toBeNull();
    expect([...ids(first), ...ids(second)]).toEqual([String(closed.id), String(open.id)]);
    // Visitor matches and leads come with the first page only.
    expect(second.conversations).toEqual([]);
  });

  it("needs conversations-read, and users-list for leads; refuses bad parameters", async ({
    app: a,
    scoped,
  }) => {
    const convOnly = await scoped(["conversations-read"]);
    expect((await search(a, { q: "anything" }, convOnly)).leads).toEqual([]);
    fails(
      await convOnly.get(`/api/apps/${a.app.id}/search`, { q: "anything", kind: "all" }),
      403,
      "PermissionDenied",
    );
    const usersOnly = await scoped(["users-list"]);
    fails(await usersOnly.get(`/api/apps/${a.app.id}/search`, { q: "anything" }), 403, "PermissionDenied");
    fails(await a.api.get(`/api/apps/${a.app.id}/search`, {}), 400, "ValidationError", "q");
    fails(
      await a.api.get(`/api/apps/${a.app.id}/search`, { q: "x".repeat(201) }),
      400,
      "ValidationError",
      "q",
    );
    fails(
      await a.api.get(`/api/apps/${a.app.id}/search`, { q: "abc", cursor: "nope" }),
      400,
      "ValidationError",
      "cursor",
    );
    fails(
      await a.api.get(`/api/apps/${a.app.id}/search`, { q: "abc", kind: "x" }),
      400,
      "ValidationError",
      "kind",
    );
    // PostgreSQL text cannot hold NUL: the edge refuses it before any statement.
    fails(
      await a.api.get(`/api/apps/${a.app.id}/search`, { q: "abc\u0000def" }),
      400,
      "ValidationError",
      "q",
    );
    // tsquery syntax in the query is only text.
    expect((await search(a, { q: "a & !b | (c:*" })).messages).toEqual([]);
  });
});

describe("the messages' two steps", () => {
  it("parts below the recent window come from the older step, after the window's, newest first", async ({
    server: s,
    app: a,
  }) => {
    const w = word();
    const conv = await startConversation(a.api, s.db, a.app.id, "Opening line");
    for (let i = 0; i < 4; i++)
      ok(await a.api.postForm(`/api/conversations/${conv.id}/reply`, { body: `${w} ${i}` }));
    const all = (await search(a, { q: w })).messages.map((m) => BigInt(m.part_id));
    expect(all).toHaveLength(4);
    // A cursor RECENT_WINDOW above the second newest part puts the two newest in the window, the others below it.
    const cursor = String(all[1]! + BigInt(RECENT_WINDOW));
    const page = await search(a, { q: w, cursor, limit: "3" });
    expect(page.messages.map((m) => BigInt(m.part_id))).toEqual(all.slice(0, 3));
    expect(page.next_cursor).toBe(String(all[2]));
    // Ten IDs higher, the window holds none of them (parts of one conversation take consecutive IDs here).
    const below = await search(a, {
      q: w,
      cursor: String(all[1]! + BigInt(RECENT_WINDOW) + 10n),
      limit: "3",
    });
    expect(below.messages.map((m) => BigInt(m.part_id))).toEqual(all.slice(0, 3));
  });
});

describe("the users' two steps", () => {
  it("the recent step holds the users from the bound up, the older one those below: newest first, at most 50", async ({
    server: s,
    app: a,
    other: b,
  }) => {
    const frag = word();
    const users = [];
    for (let i = 0; i < 53; i++) users.push(await makeUser(s.db, a.app.id, { name: `Ann ${frag} ${i}` }));
    await makeUser(s.db, b.app.id, { name: `Ann ${frag} theirs` });
    const sql = sqlOf(s.db);
    const ids = (rows: { uid: bigint }[]) => rows.map((r) => r.uid);
    const newest = users.map((u) => u.id).reverse();
    // Any bound gives the same users: all in the recent step, split between the steps, all in the older one.
    for (const bound of [users[0]!.id, users[50]!.id, users[52]!.id + 1n]) {
      const found = await sql.$queryRaw<{ uid: bigint }[]>(usersStatement(a.app.id, frag, undefined, bound));
      expect(ids(found).sort((x, y) => (x < y ? 1 : -1))).toEqual(newest.slice(0, USERS_CAP));
    }
  });
});
