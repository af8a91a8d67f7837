import path from "node:path";
import type { AddressObject } from "mailparser";
import nodemailer from "nodemailer";
import { test, expect, type APIRequestContext } from "@playwright/test";
import { logInThroughForm } from "./support/fixtures";
import { listening, openConversation, reply, row, stamp } from "./support/inbox";
import { data, frameOf, messages, openMessenger } from "./support/messenger";
import { logTail, startE2EServer, stopE2EServer, type E2EServer } from "./support/server";
import { readRun } from "./support/state";
import { startSmtpSink, type SmtpSink } from "../lib/email/testing";
import { hostPage, startHostSite, type HostSite } from "../lib/testing/host-page";
import { freePort } from "../lib/testing/port";

// The email channel's round trip through real parts: a visitor leaves their address in the messenger and goes
// away; the operator's reply, unread, is emailed over SMTP (to a sink this spec runs); the visitor's answer, sent
// over SMTP to the server's own listener, appears live in the operator's Inbox. global-setup's servers have no
// SMTP (settings-email.spec.ts relies on that), so this spec starts a server of its own with the email settings.

const DOMAIN = "mail.test";

let sink: SmtpSink | undefined;
let server: E2EServer | undefined;
let inboundPort = 0;
let api: APIRequestContext | undefined;
let site: HostSite | undefined;

test.beforeAll(async ({ playwright }, testInfo) => {
  // The CLI making the app, and a production server's start, on a loaded machine.
  test.setTimeout(240_000);
  sink = await startSmtpSink();
  inboundPort = await freePort();
  server = await startE2EServer({
    tmpDir: readRun().tmpDir,
    // Repeats (--repeat-each) may run on two workers at once: each its own data and database.
    name: `email_w${testInfo.parallelIndex}_r${testInfo.repeatEachIndex}`,
    extraEnv: {
      SMTP_URL: sink.url,
      SMTP_INBOUND_PORT: String(inboundPort),
      INBOUND_EMAIL_DOMAIN: DOMAIN,
      EMAIL_CONTINUITY_DELAY: "1",
    },
  });
  const e2e = server.state;
  api = await playwright.request.newContext({
    baseURL: e2e.baseURL,
    extraHTTPHeaders: { Authorization: `Token ${e2e.token}` },
  });
  const { public_key: key } = await data<{ public_key: string }>(
    await api.get(`/api/v2/apps/${e2e.admin.appId}/messenger`),
  );
  site = await startHostSite({ "/shop": hostPage({ origin: e2e.baseURL, key }) });
});

test.afterEach(async ({}, testInfo) => {
  // The server's own log (its stdout and stderr) with a failed test's report.
  if (server && testInfo.status !== testInfo.expectedStatus)
    await testInfo.attach("server.log", { body: logTail(server, 200_000), contentType: "text/plain" });
});

test.afterAll(async () => {
  await site?.close();
  await api?.dispose();
  if (server) await stopE2EServer(server, { removeData: true });
  await sink?.close();
});

const addressOf = (a: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(a) ? a.flatMap((x) => x.value) : (a?.value ?? [])).map((v) => v.address?.toLowerCase());

test("an unread reply is emailed to the visitor, and their answer by email appears live in the operator's Inbox", async ({
  page,
  browser,
}) => {
  // A visitor's and an operator's browser, a login, an email each way: minutes on a loaded machine.
  test.setTimeout(240_000);
  const e2e = server!.state;
  const visitorEmail = `vera-${stamp()}@example.com`;
  const question = `Do you ship to Norway? ${stamp()}`;
  const answerText = `Let me check with the warehouse ${stamp()}`;
  const comeback = `Thanks, Oslo would be perfect ${stamp()}`;
  const toVisitor = () => sink!.received.filter((m) => addressOf(m.parsed.to).includes(visitorEmail));

  // The visitor, with no operator online: the messenger offers its email prompt (once its first heartbeat says so,
  // on the home view; a conversation opened after that shows it too).
  await openMessenger(page, `${site!.url}/shop`);
  const frame = frameOf(page);
  await expect(frame.getByRole("textbox", { name: "Your email" })).toBeVisible({ timeout: 30_000 });
  await frame.getByRole("button", { name: "New conversation" }).click();
  const started = page.waitForResponse(
    (r) => r.url().endsWith("/api/v2/messenger/conversations") && r.request().method() === "POST",
  );
  await frame.getByRole("textbox", { name: "Message" }).fill(question);
  await frame.getByRole("textbox", { name: "Message" }).press("Enter");
  const id = String(
    ((await (await started).json()) as { data: { conversation: { id: number } } }).data.conversation.id,
  );
  await expect(messages(page).getByText(question)).toBeVisible();
  await frame.getByRole("textbox", { name: "Your email" }).fill(visitorEmail);
  await frame.getByRole("button", { name: "Save", exact: true }).click();
  await expect(frame.getByText(`Thanks! We will reply to ${visitorEmail}.`)).toBeVisible();
  // Gone: nothing of theirs can read the reply.
  await page.close();

  // The operator, in the panel's Inbox on this spec's server, opens the conversation and replies.
  const context = await browser.newContext({ baseURL: e2e.baseURL, viewport: { width: 1280, height: 800 } });
  try {
    const op = await context.newPage();
    await logInThroughForm(op, e2e.admin);
    await expect(op).toHaveURL(/\/inbox/);
    await expect(op.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
    await listening(api!, op);
    await expect(row(op, id)).toContainText(question);
    await openConversation(op, id);
    await expect(op.getByTestId("part-user").filter({ hasText: question })).toBeVisible();
    await reply(op, answerText);
    const replied = Date.now();
    await expect(op.getByTestId("part-admin").filter({ hasText: answerText })).toBeVisible();
    await expect(op.getByTestId("part-admin").filter({ hasText: answerText })).not.toHaveAttribute(
      "data-pending",
      "true",
    );

    // Within the delay (1 s) and the job runner's turn: one email, to the visitor, with the reply.
    await expect.poll(() => toVisitor().length, { timeout: 45_000 }).toBe(1);
    test
      .info()
      .annotations.push({ type: "email after the reply", description: `${Date.now() - replied} ms` });
    const mail = toVisitor()[0]!;
    const m = mail.parsed;
    expect(addressOf(m.from)).toEqual([`app-${e2e.admin.appId}@${DOMAIN}`]);
    const replyTo = addressOf(m.replyTo);
    expect(replyTo).toHaveLength(1);
    expect(replyTo[0]).toMatch(new RegExp(`^reply\\+[0-9a-f]{40}@${DOMAIN.replace(".", "\\.")}$`));
    expect(m.subject).toBe(`Your conversation with ${e2e.admin.appName}`);
    expect(m.text).toContain(answerText);
    expect(m.messageId).toBeTruthy();
    // Screenshots for the docs only when asked (E2E_SCREENSHOTS=docs/screenshots): the email's HTML as a mail
    // program shows it, in a page of its own with nothing else loaded.
    const shots = process.env.E2E_SCREENSHOTS;
    if (shots && typeof m.html === "string") {
      const view = await op.context().newPage();
      await view.setViewportSize({ width: 700, height: 560 });
      await view.setContent(m.html);
      await view.screenshot({ path: path.join(shots, "email-continuity.png"), fullPage: true });
      await view.close();
    }

    // The visitor answers from their mail program: a new line above the quoted history, over SMTP to the
    // server's listener. A marker on the operator's page tells whether it was reloaded meanwhile.
    await op.evaluate(() => Object.assign(window, { e2eNotReloaded: true }));
    const smtp = nodemailer.createTransport({
      host: "127.0.0.1",
      port: inboundPort,
      secure: false,
      ignoreTLS: true,
    });
    try {
      await smtp.sendMail({
        from: { name: "Vera Visitor", address: visitorEmail },
        to: replyTo[0]!,
        subject: `Re: ${m.subject}`,
        text:
          `${comeback}\n\n` +
          `On Tue, 3 Mar 2026 at 10:15, ${e2e.admin.appName} <app-${e2e.admin.appId}@${DOMAIN}> wrote:\n` +
          `> ${e2e.admin.name} replied to your conversation with ${e2e.admin.appName}.\n` +
          `>\n> ${answerText}\n`,
        inReplyTo: m.messageId,
        references: [m.messageId!],
      });
    } finally {
      smtp.close();
    }
    const answered = Date.now();

    // Live in the open conversation: the new line only, as the visitor's message, without a reload.
    const comebackPart = op
      .getByRole("list", { name: "Messages" })
      .getByTestId("part-user")
      .filter({ hasText: comeback });
    await expect(comebackPart).toBeVisible({ timeout: 30_000 });
    test.info().annotations.push({
      type: "answer in the Inbox after sending",
      description: `${Date.now() - answered} ms`,
    });
    await expect(comebackPart.getByTestId("part-body")).toHaveText(comeback);
    await expect(op.getByRole("list", { name: "Messages" }).getByText(/wrote:/)).toHaveCount(0);
    expect(await op.evaluate(() => (window as { e2eNotReloaded?: boolean }).e2eNotReloaded)).toBe(true);
    await expect(op).toHaveURL(new RegExp(`[?&]c=${id}(&|$)`));

    // The same conversation, as the API has it: the answer a visitor's reply sent via email.
    const parts = await data<{ type: string; sent_via: string; body: string }[]>(
      await api!.get(`/api/v2/conversations/${id}/parts`),
    );
    expect(parts.filter((p) => p.body === comeback)).toEqual([
      expect.objectContaining({ type: "reply_user", sent_via: "email", body: comeback }),
    ]);
    // Still the one email: the answer emailed nothing more to the visitor.
    expect(toVisitor()).toHaveLength(1);
  } finally {
    await context.close();
  }
});
