import { afterAll, describe, expect } from "vitest";
import { serverTest, type TestApp } from "../testing/server-test";
import type { TestServer } from "../testing/server";
import { errorOf, ok } from "../users/testing";
import { bootTestVisitor, type TestVisitor } from "../messenger/testing";
import { startReceiver } from "../webhooks/testing";
import type { ConversationRating, CsatReport, CsatSettings, VisitorRating } from "./schemas";

const it = serverTest({ webhookAllowPrivate: true });
const rcv = await startReceiver();
afterAll(() => rcv.close());

const MESSENGER = "/api/v2/messenger/conversations";

async function enable(a: TestApp, enabled = true) {
  return ok<CsatSettings>(await a.api.postJson(`/api/v2/apps/${a.app.id}/csat`, { enabled }));
}

/** A visitor's conversation an operator answered, and closed when `close`. */
async function answered(s: TestServer, a: TestApp, close = true) {
  const v = await bootTestVisitor(s, a);
  const started = ok<{ conversation: { id: number } }>(await v.api.postJson(MESSENGER, { body: "Help?" }));
  const id = started.conversation.id;
  ok(await a.api.postForm(`/api/v2/conversations/${id}/reply`, { body: "Sure, done." }));
  if (close) ok(await a.api.postForm(`/api/v2/conversations/${id}/close`));
  return { v, id };
}

const ratingOf = async (a: TestApp, id: number) =>
  ok<ConversationRating | null>(await a.api.get(`/api/v2/conversations/${id}/rating`));
const rate = (v: TestVisitor, id: number, body: Record<string, unknown>) =>
  v.api.postJson(`${MESSENGER}/${id}/rating`, body);

describe("CSAT", () => {
  it("is off by default and turned on per app", async ({ app: a, other: o }) => {
    expect(ok<CsatSettings>(await a.api.get(`/api/v2/apps/${a.app.id}/csat`)).enabled).toBe(false);
    expect((await enable(a)).enabled).toBe(true);
    expect(ok<CsatSettings>(await a.api.get(`/api/v2/apps/${a.app.id}/csat`)).enabled).toBe(true);
    expect(ok<CsatSettings>(await o.api.get(`/api/v2/apps/${o.app.id}/csat`)).enabled).toBe(false);
    await enable(a, false);
  });

  it("asks once when an operator closes an answered conversation, not when off or unanswered", async ({
    server: s,
    app: a,
  }) => {
    const off = await answered(s, a);
    expect(await ratingOf(a, off.id)).toBeNull();
    await enable(a);
    const v = await bootTestVisitor(s, a);
    const unanswered = ok<{ conversation: { id: number } }>(await v.api.postJson(MESSENGER, { body: "Hi" }));
    ok(await a.api.postForm(`/api/v2/conversations/${unanswered.conversation.id}/close`));
    expect(await ratingOf(a, unanswered.conversation.id)).toBeNull();

    const { id } = await answered(s, a);
    const asked = await ratingOf(a, id);
    expect(asked).toMatchObject({ conversation: id, rating: null, comment: null, channel: null });
    expect(asked!.admin).not.toBeNull();
    // Reopened and closed again: the same request, not a second one.
    ok(await a.api.postForm(`/api/v2/conversations/${id}/reopen`));
    ok(await a.api.postForm(`/api/v2/conversations/${id}/close`));
    expect(await ratingOf(a, id)).toEqual(asked);
  });

  it("records the visitor's rating once and refuses a second, with the webhook delivered", async ({
    server: s,
    app: a,
  }) => {
    await enable(a);
    ok(
      await a.api.postJson(`/api/v2/apps/${a.app.id}/webhooks`, {
        url: rcv.url,
        events: ["conversation.rated"],
      }),
    );
    const { v, id } = await answered(s, a);
    expect(ok<VisitorRating | null>(await v.api.get(`${MESSENGER}/${id}/rating`))).toMatchObject({
      rating: null,
    });
    errorOf(await rate(v, id, { rating: 6 }), 400, "ValidationError");
    const given = ok<VisitorRating>(await rate(v, id, { rating: 4, comment: "  Quick and kind  " }));
    expect(given).toMatchObject({ conversation: id, rating: 4, comment: "Quick and kind" });
    expect(given.rated).toBeGreaterThan(0);
    const again = errorOf(await rate(v, id, { rating: 5 }), 400, "ValidationError");
    expect(again.error_fields?.rating).toMatch(/already given/);
    expect(await ratingOf(a, id)).toMatchObject({
      rating: 4,
      comment: "Quick and kind",
      channel: "messenger",
    });

    // Another visitor cannot rate it, nor a conversation never asked.
    const stranger = await bootTestVisitor(s, a);
    errorOf(await rate(stranger, id, { rating: 1 }), 400, "LookupError");
    const open = await answered(s, a, false);
    errorOf(await rate(open.v, open.id, { rating: 3 }), 400, "LookupError");

    const [hit] = await rcv.waitFor(
      1,
      (r) => r.json.type === "conversation.rated" && r.json.data.conversation === id,
    );
    expect(hit!.json.data).toMatchObject({ conversation: id, rating: 4, comment: "Quick and kind" });
    const users = ok<ConversationRating[]>(
      await a.api.get(`/api/v2/apps/${a.app.id}/users/${(await ratingOf(a, id))!.user}/ratings`),
    );
    expect(users.map((r) => r.conversation)).toEqual([id]);
  });

  it("filters the Inbox list by rating (v2)", async ({ server: s, app: a }) => {
    await enable(a);
    const good = await answered(s, a);
    ok(await rate(good.v, good.id, { rating: 5 }));
    const bad = await answered(s, a);
    ok(await rate(bad.v, bad.id, { rating: 2 }));
    const unrated = await answered(s, a);
    const list = async (rating: string) =>
      ok<{ id: number }[]>(
        await a.api.get(`/api/v2/apps/${a.app.id}/conversations`, { rating, per_page: 100 }),
      )
        .map((c) => c.id)
        .filter((c) => [good.id, bad.id, unrated.id].includes(c))
        .sort((x, y) => x - y);
    expect(await list("good")).toEqual([good.id]);
    expect(await list("bad")).toEqual([bad.id]);
    expect(await list("2")).toEqual([bad.id]);
    expect(await list("rated")).toEqual([good.id, bad.id].sort((x, y) => x - y));
    expect(await list("unrated")).toEqual([unrated.id]);
    errorOf(
      await a.api.get(`/api/v2/apps/${a.app.id}/conversations`, { rating: "great" }),
      400,
      "ValidationError",
    );
  });

  it("reports score, response rate, days, operators and comments", async ({ server: s, other: o }) => {
    await enable(o);
    const ratings = [5, 4, 2, null];
    const convs = [];
    for (const r of ratings) {
      const c = await answered(s, o);
      if (r !== null) ok(await rate(c.v, c.id, { rating: r, ...(r === 2 ? { comment: "Too slow" } : {}) }));
      convs.push(c);
    }
    const day = new Date().toISOString().slice(0, 10);
    const rep = ok<CsatReport>(
      await o.api.get(`/api/v2/apps/${o.app.id}/reports/csat`, { from: day, to: day }),
    );
    expect(rep).toMatchObject({ ratings: 3, good: 2, requests: 4 });
    expect(rep.score).toBeCloseTo(2 / 3);
    expect(rep.response_rate).toBeCloseTo(3 / 4);
    expect(rep.series).toEqual([{ day, ratings: 3, good: 2, score: 2 / 3 }]);
    expect(rep.operators).toHaveLength(1);
    expect(rep.operators[0]).toMatchObject({ requests: 4, ratings: 3, good: 2 });
    expect(rep.comments).toEqual([
      expect.objectContaining({ conversation: convs[2]!.id, rating: 2, comment: "Too slow" }),
    ]);
  });
});
