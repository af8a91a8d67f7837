import { afterAll, describe, expect } from "vitest";
import { serverTest } from "../testing/server-test";
import type { TestApp } from "../testing/fixture";
import type { TestServer } from "../testing/server";
import { makeAdmin, makeApp, makeUser } from "../testing/factories";
import { client } from "../testing/http";
import { sendOverSmtp, startSmtpSink, testEmailConfig, type SunkEmail } from "./testing";
import { CONTINUITY_QUEUE, OPERATORS_QUEUE, TRANSCRIPT_QUEUE } from "../conversations/email-followups";
import { NOTIFY_EMAIL_QUEUE } from "../notifications/email-queue";

const sink = await startSmtpSink();
afterAll(() => sink.close());
const it = serverTest({ email: testEmailConfig(sink, { inboundPort: 0 }) });

const random = () => Math.random().toString(36).slice(2);

/** An app of its own per test: its email settings and operators concern no other test's emails. */
async function ownApp(s: TestServer): Promise<TestApp> {
  const made = await makeApp(s.db);
  return { ...made, api: client(s, made.token) };
}

/** A visitor with an address and their first message: a new, unassigned conversation of the app. */
async function visitorWrites(s: TestServer, a: TestApp, body = "Is anyone there?") {
  const email = `v${random()}@example.com`;
  const user = await makeUser(s.db, a.app.id, { email, name: "Vera Visitor" });
  const r = await a.api.postForm(`/api/users/${user.id}/startconversation`, { body });
  return { email, user, conversation: BigInt((r.body.data as { id: number }).id) };
}

/** Runs the jobs due now of the given queues, then the sends they queued. */
async function run(s: TestServer, ...queues: string[]) {
  for (const q of queues) await s.server.jobs.poll(q);
  await s.server.jobs.poll("email.send");
}

const to = (m: SunkEmail) => m.envelope.to[0];
const since = (n: number) => sink.received.slice(n);

async function answerByMail(s: TestServer, mail: SunkEmail, from: string, text: string) {
  await sendOverSmtp(s.server.smtpPort!, {
    from,
    to: mail.parsed.replyTo!.value[0]!.address!,
    subject: `Re: ${mail.parsed.subject}`,
    inReplyTo: mail.parsed.messageId,
    text: `${text}\n\nOn Tue, 1 Dec 2026 at 10:00, Relay <x@mail.test> wrote:\n> ${mail.parsed.text?.split("\n")[0]}\n`,
  });
}

describe("operator emails", () => {
  it("a visitor's message unread past the delay: the operators who want it are emailed, and answering by mail replies", async ({
    server: s,
  }) => {
    const a = await ownApp(s);
    await a.api.postForm(`/api/apps/${a.app.id}/email/settings`, {
      operator_delay: "0",
      continuity_delay: "0",
    });
    const quiet = await makeAdmin(s.db, { appId: a.app.id });
    await s.db.admin.update({ where: { id: quiet.id }, data: { emailOnUnread: false } });
    const n = sink.received.length;
    const v = await visitorWrites(s, a, "My order has not arrived");
    await run(s, OPERATORS_QUEUE);
    const got = since(n);
    expect(got.map(to)).toEqual([a.admin.email]);
    const mail = got[0]!;
    expect(mail.parsed.text).toContain("My order has not arrived");
    expect(mail.parsed.text).toContain(`/inbox?c=${v.conversation}`);
    expect(mail.parsed.replyTo!.value[0]!.address).toMatch(/^reply\+[0-9a-f]{40}@mail\.test$/);

    // The operator answers from their mail program: the visitor gets it as the operator's reply.
    const m = sink.received.length;
    await answerByMail(s, mail, a.admin.email, "It left the warehouse today.");
    const parts = await s.db.conversationPart.findMany({
      where: { conversationId: v.conversation },
      orderBy: { id: "asc" },
    });
    expect(parts.at(-1)).toMatchObject({
      type: "reply_admin",
      sentVia: "email",
      fromAdminId: a.admin.id,
      body: "It left the warehouse today.",
    });
    await run(s, CONTINUITY_QUEUE);
    const toVisitor = since(m);
    expect(toVisitor.map(to)).toEqual([v.email]);
    expect(toVisitor[0]!.parsed.text).toContain("It left the warehouse today.");
  });

  it("sends nothing once an operator read the message in the Inbox", async ({ server: s, operator }) => {
    const a = await ownApp(s);
    // An hour: the job is made due below, after the read, however slowly the read comes on a busy machine.
    await a.api.postForm(`/api/apps/${a.app.id}/email/settings`, { operator_delay: "3600" });
    const v = await visitorWrites(s, a);
    const read = await (await operator(a.admin.id)).postForm(`/api/conversations/${v.conversation}/read`);
    expect(read.status).toBe(200);
    await s.db
      .$executeRaw`UPDATE jobs SET run_at = now() WHERE key = ${`${OPERATORS_QUEUE}:${v.conversation}`}`;
    const n = sink.received.length;
    await run(s, OPERATORS_QUEUE);
    expect(since(n)).toEqual([]);
  });

  it("mentions and assignments are emailed at once, unless the operator turned them off", async ({
    server: s,
    operator,
  }) => {
    const a = await ownApp(s);
    const mate = await makeAdmin(s.db, { appId: a.app.id, name: `Mia ${random()}` });
    const v = await visitorWrites(s, a);
    const n = sink.received.length;
    const me = await operator(a.admin.id);
    await me.postForm(`/api/conversations/${v.conversation}/reply`, {
      type: "note",
      body: `@${mate.name} can you look?`,
    });
    await me.postForm(`/api/conversations/${v.conversation}/assign`, { admin: String(mate.id) });
    await run(s, NOTIFY_EMAIL_QUEUE);
    const got = since(n);
    expect(got.map(to)).toEqual([mate.email, mate.email]);
    // Sent side by side: in either order.
    expect(got.map((m) => m.parsed.text?.split("\n")[0]).sort()).toEqual([
      `${a.admin.name} assigned you the conversation with Vera Visitor.`,
      `${a.admin.name} mentioned you in the conversation with Vera Visitor.`,
    ]);

    // The operator's own switches, through the API as the panel sets them.
    const mine = await operator(mate.id);
    const off = await mine.postForm("/api/me/email_notifications", { mention: "false", assigned: "false" });
    expect(off.body.data).toEqual({ unread: true, mention: false, assigned: false });
    expect((await a.api.get("/api/me/email_notifications")).status).toBe(403);
    const m = sink.received.length;
    await me.postForm(`/api/conversations/${v.conversation}/reply`, {
      type: "note",
      body: `@${mate.name} again`,
    });
    await me.postForm(`/api/conversations/${v.conversation}/assign`, { admin: String(a.admin.id) });
    await me.postForm(`/api/conversations/${v.conversation}/assign`, { admin: String(mate.id) });
    await run(s, NOTIFY_EMAIL_QUEUE);
    expect(since(m)).toEqual([]);
  });
});

describe("transcripts", () => {
  it("email a closed conversation to its visitor, and an answer reopens it", async ({ server: s }) => {
    const a = await ownApp(s);
    await a.api.postForm(`/api/apps/${a.app.id}/email/settings`, {
      transcripts: "true",
      continuity_delay: "3600",
    });
    const v = await visitorWrites(s, a, "Can I change my plan?");
    await a.api.postForm(`/api/conversations/${v.conversation}/reply`, { body: "Yes, in Billing." });
    await a.api.postForm(`/api/conversations/${v.conversation}/reply`, {
      type: "note",
      body: "internal only",
    });
    const n = sink.received.length;
    expect((await a.api.postForm(`/api/conversations/${v.conversation}/close`)).status).toBe(200);
    await run(s, TRANSCRIPT_QUEUE);
    const got = since(n);
    expect(got.map(to)).toEqual([v.email]);
    const text = got[0]!.parsed.text!;
    expect(text).toContain("Can I change my plan?");
    expect(text).toContain("Yes, in Billing.");
    expect(text).not.toContain("internal only");
    await answerByMail(s, got[0]!, v.email, "Thanks, one more thing.");
    const conv = await s.db.conversation.findUniqueOrThrow({ where: { id: v.conversation } });
    expect(conv.closed).toBe(false);
    // The reply the transcript carried is not emailed again as unread.
    await s.db
      .$executeRaw`UPDATE jobs SET run_at = now() WHERE key = ${`${CONTINUITY_QUEUE}:${v.conversation}`}`;
    const m = sink.received.length;
    await run(s, CONTINUITY_QUEUE);
    expect(since(m)).toEqual([]);
  });
});
