import fs from "node:fs";
import { afterAll, describe, expect } from "vitest";
import { serverTest } from "../testing/server-test";
import type { TestApp } from "../testing/fixture";
import type { TestServer } from "../testing/server";
import { makeUser } from "../testing/factories";
import { sendOverSmtp, smtpDialogue, startSmtpSink, testEmailConfig, type SunkEmail } from "./testing";
import { CONTINUITY_QUEUE } from "../conversations/email-followups";

const SECRET = "inbound-secret-0123456789";
const sink = await startSmtpSink();
afterAll(() => sink.close());
const it = serverTest({ email: testEmailConfig(sink, { inboundPort: 0, inboundSecret: SECRET }) });

interface Part {
  id: number;
  body: string;
  type: string;
  sent_via: string;
  direction: string;
  read: boolean;
  attachments: { name: string }[];
}

const fixture = (name: string) =>
  fs.readFileSync(new URL(`./inbound/fixtures/${name}.eml`, import.meta.url), "latin1");

/** A fixture made an answer to `mail`: its reply address, its Message-ID and the visitor's address put in. */
function answering(name: string, mail: SunkEmail, from: string): Buffer {
  const replyTo = mail.parsed.replyTo!.value[0]!.address!;
  return Buffer.from(
    fixture(name)
      .replaceAll("reply+tok123@mail.test", replyTo)
      .replaceAll("<relay.1.abc@mail.test>", mail.parsed.messageId!)
      .replace(/anna@example\.com/gi, from)
      // Each answer a message of its own: a repeated Message-ID is the same message delivered twice.
      .replace(/^Message-ID: <[^>]+>/im, `Message-ID: <${Math.random().toString(36).slice(2)}@example.com>`),
    "latin1",
  );
}

const inbound = (s: TestServer, raw: Buffer | string, headers: Record<string, string> = {}) =>
  s.call("/api/email/inbound", {
    method: "POST",
    headers: { authorization: `Bearer ${SECRET}`, "content-type": "message/rfc822", ...headers },
    body: typeof raw === "string" ? raw : new Uint8Array(raw),
  });

/** A visitor with an address whose conversation got an operator's reply by email; that email. */
async function emailed(s: TestServer, a: TestApp) {
  const email = `v${Math.random().toString(36).slice(2)}@example.com`;
  const user = await makeUser(s.db, a.app.id, { email, name: "Anna" });
  const r = await a.api.postForm(`/api/users/${user.id}/startconversation`, { body: "hello" });
  const conversation = BigInt((r.body.data as { id: number }).id);
  const n = sink.received.length;
  await a.api.postForm(`/api/conversations/${conversation}/reply`, { body: "Here is your answer" });
  await s.server.jobs.poll(CONTINUITY_QUEUE);
  const mail = (await sink.count(n + 1))[n]!;
  return { user, email, conversation, mail };
}

const partsOf = async (s: TestServer, conversation: bigint): Promise<Part[]> =>
  (
    await s.db.conversationPart.findMany({
      where: { conversationId: conversation },
      orderBy: { id: "asc" },
      include: { attachments: { select: { filename: true } } },
    })
  ).map((p) => ({
    id: Number(p.id),
    body: p.body,
    type: p.type,
    sent_via: p.sentVia,
    direction: p.direction,
    read: p.read,
    attachments: p.attachments.map((f) => ({ name: f.filename })),
  }));

describe("answers by email", () => {
  it("over SMTP: the visitor's answer lands in the same conversation as their reply, quoting removed", async ({
    server: s,
    app: a,
  }) => {
    const v = await emailed(s, a);
    await sendOverSmtp(s.server.smtpPort!, {
      envelope: { from: v.email, to: [v.mail.parsed.replyTo!.value[0]!.address!] },
      raw: answering("gmail-reply", v.mail, v.email),
    });
    const parts = await partsOf(s, v.conversation);
    const last = parts.at(-1)!;
    expect(last).toMatchObject({ type: "reply_user", sent_via: "email" });
    expect(last.body).toBe(
      "Hi,\n\nThanks, the invoice looks right now. Could you also send me the receipt for October? I need it for our accounting.\n\nAnna",
    );
    // The operator's reply counts as read by whoever answers it.
    expect(parts.filter((p) => p.direction === "a2u").every((p) => p.read)).toBe(true);
  });

  it("over HTTP: Outlook, Apple Mail and HTML-only answers, attachments kept, a repeat appended once", async ({
    server: s,
    app: a,
  }) => {
    const v = await emailed(s, a);
    for (const name of ["outlook-reply", "apple-mail-reply", "html-only"]) {
      const r = await inbound(s, answering(name, v.mail, v.email));
      expect(r.status, r.text).toBe(200);
      expect(r.body.data).toMatchObject({ outcome: "appended", conversation: Number(v.conversation) });
    }
    const twice = answering("attachments", v.mail, v.email);
    expect((await inbound(s, twice)).body.data).toMatchObject({ outcome: "appended" });
    const again = await inbound(s, twice);
    expect(again.body.data).toMatchObject({ outcome: "ignored", reason: "already received" });
    const parts = (await partsOf(s, v.conversation)).filter((p) => p.sent_via === "email");
    expect(parts.map((p) => p.body.split("\n")[0])).toEqual([
      "Hello,",
      "Perfect, see you on Thursday then. I will bring the contract.",
      "Hello again,",
      "Hi,",
      // The second file, a part of its own.
      "",
    ]);
    expect(parts.flatMap((p) => p.attachments.map((f) => f.name))).toEqual([
      "Rechnung Müller 1042.pdf",
      "screenshot.png",
    ]);
    for (const p of parts) expect(p.body).not.toMatch(/^>|wrote:|Original Message|From: Relay/m);
  });

  it("never appends to someone else's thread: another sender, a forged token", async ({
    server: s,
    app: a,
  }) => {
    const v = await emailed(s, a);
    const stranger = `x${Math.random().toString(36).slice(2)}@example.com`;
    const r = await inbound(s, answering("gmail-reply", v.mail, stranger));
    expect(r.body.data).toMatchObject({ outcome: "started" });
    expect((r.body.data as { conversation: number }).conversation).not.toBe(Number(v.conversation));
    expect((await partsOf(s, v.conversation)).some((p) => p.sent_via === "email")).toBe(false);

    const forged = Buffer.from(
      answering("gmail-reply", v.mail, v.email)
        .toString("latin1")
        .replace(/reply\+[0-9a-f]{40}@/g, `reply+${"ab".repeat(20)}@`)
        .replace(/^(In-Reply-To|References):.*\r?\n/gim, ""),
      "latin1",
    );
    const f = await inbound(s, forged);
    expect(f.body.data).toMatchObject({
      outcome: "refused",
      reason: "no conversation has this reply address",
    });
  });

  it("by References when the mail program dropped the reply address", async ({ server: s, app: a }) => {
    const v = await emailed(s, a);
    const raw = answering("gmail-reply", v.mail, v.email)
      .toString("latin1")
      .replace(/reply\+[0-9a-f]{40}@mail\.test/g, `app-${a.app.id}@mail.test`);
    const r = await inbound(s, Buffer.from(raw, "latin1"));
    expect(r.body.data).toMatchObject({ outcome: "appended", conversation: Number(v.conversation) });
  });
});

describe("mail to the app's address", () => {
  it("starts a conversation from a new sender, matches a known one, and ignores machines", async ({
    server: s,
    app: a,
  }) => {
    const to = `app-${a.app.id}@mail.test`;
    const mail = (from: string, extra = "") =>
      `From: New Person <${from}>\r\nTo: ${to}\r\nSubject: Pricing question\r\nMessage-ID: <${Math.random()}@example.com>\r\n${extra}\r\nHow much is the pro plan?\r\n`;
    const from = `n${Math.random().toString(36).slice(2)}@example.com`;
    const r = await inbound(s, mail(from));
    expect(r.body.data).toMatchObject({ outcome: "started" });
    const conv = (r.body.data as { conversation: number }).conversation;
    const parts = await partsOf(s, BigInt(conv));
    expect(parts[0]).toMatchObject({
      type: "reply_user",
      sent_via: "email",
      body: "Pricing question\n\nHow much is the pro plan?",
    });
    const users = await s.db.user.findMany({ where: { appId: a.app.id, email: from } });
    expect(users.map((u) => u.name)).toEqual(["New Person"]);
    const second = await inbound(s, mail(from.toUpperCase()));
    const conv2 = BigInt((second.body.data as { conversation: number }).conversation);
    expect((await s.db.conversation.findUniqueOrThrow({ where: { id: conv2 } })).userId).toBe(users[0]!.id);

    for (const extra of ["Auto-Submitted: auto-replied\r\n", "Precedence: bulk\r\n"]) {
      const auto = await inbound(s, mail(from, extra));
      expect(auto.body.data).toMatchObject({ outcome: "ignored" });
    }
    const loop = await inbound(s, mail(`app-${a.app.id}@mail.test`));
    expect(loop.body.data).toMatchObject({ outcome: "ignored" });
    const nobody = await inbound(s, mail(from).replace(to, "app-999999@mail.test"));
    expect(nobody.body.data).toMatchObject({ outcome: "refused", reason: "no app has this address" });
  });

  it("refuses bad input in the envelope, never a 500: secret, type, malformed, too large, a flood", async ({
    server: s,
    app: a,
  }) => {
    expect((await inbound(s, "x", { authorization: "Bearer wrong-secret-000000" })).status).toBe(403);
    expect((await inbound(s, "x", { "content-type": "text/plain" })).status).toBe(400);
    const bad = await inbound(s, fixture("malformed"));
    expect(bad.status).toBe(400);
    expect(bad.body.meta.error).toBe("ValidationError");
    const huge = await inbound(s, Buffer.alloc(25 * 1024 * 1024 + 10, 97));
    expect(huge.status).toBe(413);
    const from = `flood${Math.random().toString(36).slice(2)}@example.com`;
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      const raw = `From: ${from}\r\nTo: app-${a.app.id}@mail.test\r\nSubject: ${i}\r\nMessage-ID: <f${i}.${from}>\r\n\r\nspam ${i}\r\n`;
      statuses.push((await inbound(s, raw)).status);
    }
    expect(statuses.slice(0, 20).every((x) => x === 200)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429]);
  });

  it("over SMTP: no relaying, and a message announced over 25 MB is refused with 552", async ({
    server: s,
    app: a,
  }) => {
    const replies = await smtpDialogue(s.server.smtpPort!, [
      "EHLO test.example",
      "MAIL FROM:<someone@example.com>",
      "RCPT TO:<someone@elsewhere.example>",
      `RCPT TO:<app-${a.app.id}@mail.test>`,
      "RSET",
      `MAIL FROM:<someone@example.com> SIZE=${30 * 1024 * 1024}`,
      "QUIT",
    ]);
    expect(replies.map((r) => r.slice(0, 3))).toEqual(["250", "250", "550", "250", "250", "552", "221"]);
  });

  it("reads a hard bounce: the email is marked bounced and the address gets nothing more", async ({
    server: s,
    app: a,
    other,
  }) => {
    const v = await emailed(s, a);
    const raw = fixture("bounce")
      .replaceAll("<relay.7.xyz@mail.test>", v.mail.parsed.messageId!)
      .replaceAll("gone@example.com", v.email);
    // Pasted by another app's operator: it is not theirs to bounce.
    const pasted = await other.api.postJson(`/api/apps/${other.app.id}/email/inbound`, { raw });
    expect(pasted.body.data).toMatchObject({ outcome: "refused", reason: "addressed to another app" });
    expect(
      (await s.db.email.findMany({ where: { conversationId: v.conversation } })).map((e) => e.state),
    ).toEqual(["sent"]);
    // By its return path alone (the report quoting no Message-ID of ours): a forged signature is no bounce.
    const verp = v.mail.envelope.from;
    const to = (address: string) =>
      fixture("bounce").replaceAll("bounces@mail.test", address).replaceAll("gone@example.com", v.email);
    const forged = await inbound(s, to(verp.replace(/\.[0-9a-f]{16}@/, `.${"0".repeat(16)}@`)));
    expect(forged.body.data).toMatchObject({ outcome: "ignored", reason: "a bounce of no email of ours" });
    const r = await inbound(s, to(verp));
    expect(r.body.data).toMatchObject({ outcome: "bounce", reason: "hard bounce 5.1.1" });
    const rows = await s.db.email.findMany({ where: { conversationId: v.conversation } });
    expect(rows.map((e) => e.state)).toEqual(["bounced"]);
    // What the user card shows, whatever the address's case.
    const card = await a.api.get(`/api/apps/${a.app.id}/email/bounces`, { address: v.email.toUpperCase() });
    expect(card.body.data).toMatchObject({ address: v.email, bouncing: true, reason: "hard bounce 5.1.1" });
    await a.api.postForm(`/api/conversations/${v.conversation}/reply`, { body: "Still there?" });
    await s.server.jobs.poll(CONTINUITY_QUEUE);
    expect(await s.db.email.count({ where: { conversationId: v.conversation } })).toBe(1);
  });
});
