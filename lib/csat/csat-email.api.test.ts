import { afterAll, describe, expect } from "vitest";
import { serverTest, type TestApp } from "../testing/server-test";
import type { TestServer } from "../testing/server";
import { makeUser } from "../testing/factories";
import { errorOf, ok } from "../users/testing";
import { startSmtpSink, testEmailConfig } from "../email/testing";
import { CSAT_EMAIL_QUEUE } from "../conversations/csat-request";
import type { ConversationRating, VisitorRating } from "./schemas";

const sink = await startSmtpSink();
afterAll(() => sink.close());
const it = serverTest({ email: testEmailConfig(sink) });

/** A visitor with an address whose conversation an operator answered and closed. */
async function closedWithEmail(s: TestServer, a: TestApp) {
  const email = `r${Math.random().toString(36).slice(2)}@example.com`;
  const user = await makeUser(s.db, a.app.id, { email, name: "Rita" });
  const r = ok<{ id: number }>(
    await a.api.postForm(`/api/users/${user.id}/startconversation`, { body: "Hi" }),
  );
  ok(await a.api.postForm(`/api/v2/conversations/${r.id}/reply`, { body: "Done!" }));
  ok(await a.api.postForm(`/api/v2/conversations/${r.id}/close`));
  return { user, email, id: r.id };
}

async function settle(s: TestServer) {
  await s.server.jobs.poll(CSAT_EMAIL_QUEUE);
  await s.server.jobs.poll("email.send");
}

const rateLink = (s: TestServer, t: string, comment?: string) =>
  s.call("/api/csat/rate", { method: "POST", form: comment ? { t, comment } : { t } });

describe("CSAT by email", () => {
  it("emails an away visitor five signed links; following one records the rating, once", async ({
    server: s,
    app: a,
  }) => {
    ok(await a.api.postJson(`/api/v2/apps/${a.app.id}/csat`, { enabled: true }));
    ok(await a.api.postForm(`/api/apps/${a.app.id}/email/settings`, { continuity_delay: "0" }));
    const c = await closedWithEmail(s, a);
    await settle(s);
    const mail = await waitForMail(c.email);
    const links = [...mail.text.matchAll(/\/rate\?t=(\d+\.[1-5]\.[0-9a-f]{32})/g)].map((m) => m[1]!);
    expect(links).toHaveLength(5);
    expect(links.map((t) => t.split(".")[1])).toEqual(["5", "4", "3", "2", "1"]);
    expect(links.every((t) => t.startsWith(`${c.id}.`))).toBe(true);
    expect(mail.html).toContain(`/rate?t=${links[0]}`);

    const four = links[1]!;
    expect(ok<VisitorRating>(await rateLink(s, four))).toMatchObject({ conversation: c.id, rating: 4 });
    // The same link again answers the rating as it is; the comment of the page's second step completes it.
    expect(ok<VisitorRating>(await rateLink(s, four))).toMatchObject({ rating: 4, comment: null });
    expect(ok<VisitorRating>(await rateLink(s, four, "Thanks a lot"))).toMatchObject({
      rating: 4,
      comment: "Thanks a lot",
    });
    const other = errorOf(await rateLink(s, links[4]!), 400, "ValidationError");
    expect(other.error_fields?.rating).toMatch(/already given/);
    errorOf(await rateLink(s, `${c.id}.5.${"0".repeat(32)}`), 403, "PermissionDenied");
    const stored = ok<ConversationRating>(await a.api.get(`/api/v2/conversations/${c.id}/rating`));
    expect(stored).toMatchObject({ rating: 4, comment: "Thanks a lot", channel: "email" });

    // Closed again: not asked twice, no second email.
    const before = sink.received.length;
    ok(await a.api.postForm(`/api/v2/conversations/${c.id}/reopen`));
    ok(await a.api.postForm(`/api/v2/conversations/${c.id}/close`));
    await settle(s);
    expect(sink.received.slice(before).filter((m) => m.parsed.text?.includes("/rate?t="))).toHaveLength(0);
  });

  it("does not email a visitor who is in the messenger, nor one already rated", async ({
    server: s,
    other: o,
  }) => {
    ok(await o.api.postJson(`/api/v2/apps/${o.app.id}/csat`, { enabled: true }));
    ok(await o.api.postForm(`/api/apps/${o.app.id}/email/settings`, { continuity_delay: "0" }));
    const email = `p${Math.random().toString(36).slice(2)}@example.com`;
    const user = await makeUser(s.db, o.app.id, { email });
    ok(await o.api.postForm(`/api/users/${user.id}/setpresence`, { presence: "online" }));
    const r = ok<{ id: number }>(
      await o.api.postForm(`/api/users/${user.id}/startconversation`, { body: "Hi" }),
    );
    ok(await o.api.postForm(`/api/v2/conversations/${r.id}/reply`, { body: "Done!" }));
    const before = sink.received.length;
    ok(await o.api.postForm(`/api/v2/conversations/${r.id}/close`));
    await settle(s);
    await new Promise((done) => setTimeout(done, 300));
    const rating = sink.received.slice(before).filter((m) => m.parsed.text?.includes("/rate?t="));
    expect(rating).toHaveLength(0);
  });
});

async function waitForMail(to: string) {
  for (let i = 0; i < 100; i++) {
    const m = sink.received.find((x) => x.envelope.to.includes(to) && x.parsed.text?.includes("/rate?t="));
    if (m) return { text: m.parsed.text ?? "", html: String(m.parsed.html) };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no rating email reached ${to}`);
}
