import { afterAll, describe, expect } from "vitest";
import { serverTest } from "../testing/server-test";
import type { TestApp } from "../testing/fixture";
import type { TestServer } from "../testing/server";
import { makeUser } from "../testing/factories";
import { startSmtpSink, testEmailConfig } from "./testing";
import { CONTINUITY_QUEUE } from "../conversations/email-followups";
import { sendEmail } from "./send";

const sink = await startSmtpSink();
afterAll(() => sink.close());
const it = serverTest({ email: testEmailConfig(sink) });

interface Delivery {
  id: number;
  state: string;
  to: string;
  message_id: string;
  conversation: number;
  attempts: number;
  next_attempt: number | null;
  last_error: string | null;
}

/** A visitor with an address, in a conversation of their own. */
async function visitor(
  s: TestServer,
  a: TestApp,
  email = `v${Math.random().toString(36).slice(2)}@example.com`,
) {
  const user = await makeUser(s.db, a.app.id, { email, name: "Anna <Visitor>" });
  const r = await a.api.postForm(`/api/users/${user.id}/startconversation`, { body: "hello" });
  expect(r.status).toBe(200);
  return { user, email, conversation: BigInt((r.body.data as { id: number }).id) };
}

/** Runs the continuity jobs due now and the sends they queue. */
async function settle(s: TestServer) {
  await s.server.jobs.poll(CONTINUITY_QUEUE);
  await s.server.jobs.poll("email.send");
}

/** A header as sent, unfolded (mailparser reads List-* headers into objects of its own). */
const header = (m: { headerLines: readonly { key: string; line: string }[] }, name: string) =>
  m.headerLines
    .find((h) => h.key === name)
    ?.line.replace(/^[^:]+:\s*/, "")
    .replace(/\r?\n\s+/g, " ");

const deliveries = async (a: TestApp, conversation: bigint) =>
  (await a.api.get(`/api/apps/${a.app.id}/email/deliveries`, { conversation: String(conversation) })).body
    .data as Delivery[];

describe("continuity emails", () => {
  it("send an operator's unread replies, several in the delay's window as one email, threaded and unsubscribable", async ({
    server: s,
    app: a,
  }) => {
    expect(
      (await a.api.postForm(`/api/apps/${a.app.id}/email/settings`, { continuity_delay: "1" })).status,
    ).toBe(200);
    const v = await visitor(s, a);
    const before = sink.received.length;
    await a.api.postForm(`/api/conversations/${v.conversation}/reply`, { body: "First <b>answer</b>" });
    await a.api.postForm(`/api/conversations/${v.conversation}/reply`, { body: "And a second one" });
    const [mail] = (await sink.count(before + 1)).slice(before);
    await settle(s);
    expect(sink.received.length).toBe(before + 1);

    const m = mail!.parsed;
    expect(m.to && !Array.isArray(m.to) && m.to.value[0]!.address).toBe(v.email);
    expect(m.from!.value[0]!.address).toBe(`app-${a.app.id}@mail.test`);
    expect(m.from!.value[0]!.name).toContain(a.app.name);
    const replyTo = m.replyTo!.value[0]!.address!;
    expect(replyTo).toMatch(/^reply\+[0-9a-f]{40}@mail\.test$/);
    expect(mail!.envelope.from).toMatch(/^bounce\+\d+\.[0-9a-f]{16}@mail\.test$/);
    expect(m.text).toContain("First <b>answer</b>");
    expect(m.text).toContain("And a second one");
    expect(m.html).toContain("First &lt;b&gt;answer&lt;/b&gt;");
    expect(m.html).not.toContain("<b>answer");
    expect(m.headers.get("auto-submitted")).toBe("auto-generated");
    const unsubscribe = String(header(m, "list-unsubscribe"));
    expect(unsubscribe).toMatch(new RegExp(`^<${s.url}/api/email/unsubscribe\\?t=\\d+\\.[0-9a-f]{32}>$`));
    expect(header(m, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");

    const [d] = await deliveries(a, v.conversation);
    expect(d).toMatchObject({ state: "sent", attempts: 1, message_id: m.messageId, last_error: null });

    // The next reply continues the thread: same subject, References and In-Reply-To point at the first.
    await a.api.postForm(`/api/conversations/${v.conversation}/reply`, { body: "Third" });
    const next = (await sink.count(before + 2))[before + 1]!.parsed;
    expect(next.subject).toBe(m.subject);
    expect(next.inReplyTo).toBe(m.messageId);
    expect(next.replyTo!.value[0]!.address).toBe(replyTo);
    expect(next.text).toContain("Third");
    expect(next.text).not.toContain("And a second one");

    // One click in the mail program (RFC 8058) unsubscribes; nothing more is emailed.
    const token = /t=([^>]+)>/.exec(unsubscribe)![1]!;
    const off = await s.call(`/api/email/unsubscribe?t=${token}`, {
      method: "POST",
      form: { "List-Unsubscribe": "One-Click" },
    });
    expect(off.status).toBe(200);
    expect(off.body.data).toEqual({ email_status: "unsubscribed", changed: true });
    const user = await a.api.get(`/api/users/${v.user.id}`, { email_status: "true" });
    expect((user.body.data as { email_status: string }).email_status).toBe("unsubscribed");
    await a.api.postForm(`/api/conversations/${v.conversation}/reply`, { body: "Fourth" });
    await new Promise((r) => setTimeout(r, 1200));
    await settle(s);
    expect(sink.received.length).toBe(before + 2);
    const forged = await s.call(`/api/email/unsubscribe?t=${v.user.id}.${"0".repeat(32)}`, {
      method: "POST",
    });
    expect(forged.status).toBe(403);
  });

  it("send nothing for replies the visitor read in the messenger before the delay passed", async ({
    server: s,
    app: a,
  }) => {
    await a.api.postForm(`/api/apps/${a.app.id}/email/settings`, { continuity_delay: "1" });
    const v = await visitor(s, a);
    await a.api.postForm(`/api/conversations/${v.conversation}/reply`, { body: "Seen live" });
    const read = await a.api.postForm(`/api/conversations/${v.conversation}/read`, {
      from_user: String(v.user.id),
    });
    expect(read.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1200));
    await settle(s);
    expect(await deliveries(a, v.conversation)).toEqual([]);
  });

  it("retry a temporary refusal with backoff, and stop at a hard bounce for good", async ({
    server: s,
    app: a,
  }) => {
    await a.api.postForm(`/api/apps/${a.app.id}/email/settings`, { continuity_delay: "3600" });
    const v = await visitor(s, a);
    await a.api.postForm(`/api/conversations/${v.conversation}/reply`, { body: "Try me" });
    // Due in an hour: run it now.
    await s.db
      .$executeRaw`UPDATE jobs SET run_at = now() WHERE key = ${`${CONTINUITY_QUEUE}:${v.conversation}`}`;
    // The send job's first attempt is refused: deferred, due again in 30 s.
    sink.refuse(451, 1);
    await settle(s);
    const [deferred] = await deliveries(a, v.conversation);
    expect(deferred).toMatchObject({ state: "deferred", attempts: 1 });
    expect(deferred!.last_error).toMatch(/451/);
    expect(deferred!.next_attempt! - Date.now() / 1000).toBeGreaterThan(20);
    const before = sink.received.length;
    // Its retry, run now rather than in 30 s.
    await sendEmail(s.server.runtime, BigInt(deferred!.id), 2);
    expect(sink.received.length).toBe(before + 1);
    expect((await deliveries(a, v.conversation))[0]).toMatchObject({ state: "sent", attempts: 2 });

    // Refused at RCPT with 550: bounced, and the address gets nothing more.
    const w = await visitor(s, a);
    await a.api.postForm(`/api/conversations/${w.conversation}/reply`, { body: "To a dead address" });
    await s.db
      .$executeRaw`UPDATE jobs SET run_at = now() WHERE key = ${`${CONTINUITY_QUEUE}:${w.conversation}`}`;
    sink.refuse(550, 1, "rcpt");
    await settle(s);
    expect((await deliveries(a, w.conversation))[0]).toMatchObject({ state: "bounced" });
    await a.api.postForm(`/api/conversations/${w.conversation}/reply`, { body: "Again" });
    await s.db
      .$executeRaw`UPDATE jobs SET run_at = now() WHERE key = ${`${CONTINUITY_QUEUE}:${w.conversation}`}`;
    await settle(s);
    expect(await deliveries(a, w.conversation)).toHaveLength(1);
  });
});
