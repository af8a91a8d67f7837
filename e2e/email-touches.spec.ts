import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import type { z } from "zod";
import { expect, logInThroughForm, test } from "./support/fixtures";
import { stamp, tokenApi } from "./support/inbox";
import { data, frameOf, launcher, messages, shopSite } from "./support/messenger";
import { readState } from "./support/state";
import type { EmailDelivery, emailPreviewSchema } from "../lib/email/schemas";
import type { Conversation } from "../lib/conversations/schemas";

// Where the email channel touches the rest: the unsubscribe page its links lead to, the messenger opened by an
// emailed reply's "Open the conversation" link, and the Inbox showing what went out and came in by email. The e2e
// server has no SMTP server: emails are stored as not sent, with their text, which is where the links are read.
const shop = shopSite();
/** The e2e server's default (EMAIL_CONTINUITY_DELAY unset), put back for the specs after this one. */
const DEFAULT_DELAY = 120;

let api: APIRequestContext;
// Read in the tests (the server is only known once global-setup has run).
const e2e = () => readState();
const appId = () => e2e().admin.appId ?? "";

const settings = (continuity_delay: number) =>
  api.post(`/api/v2/apps/${appId()}/email/settings`, { data: { continuity_delay } });

test.beforeAll(async ({ playwright }) => {
  api = await tokenApi(playwright, e2e());
  // Replies are emailed as soon as they are unread, so the tests need not wait out the delay.
  expect(await data<{ continuity: boolean }>(await settings(0))).toMatchObject({ continuity: true });
});
test.afterAll(async () => {
  await data(await settings(DEFAULT_DELAY));
  await api.dispose();
});

interface Emailed {
  conversation: number;
  userId: string;
  address: string;
  answer: string;
  email: z.infer<typeof emailPreviewSchema>;
  /** The email's "Open the conversation" link: the shop's page with `#relay-conversation=<id>`. */
  openUrl: string;
  /** The unsubscribe link's path and query, on the server under test. */
  unsubscribePath: string;
}

/**
 * A visitor writes from the shop's messenger (on `page`), has an email address, and leaves; an operator's reply
 * stays unread and is emailed to them (stored, not sent).
 */
async function emailedReply(page: Page): Promise<Emailed> {
  const run = stamp();
  const conversation = await shop.start(page, `Where is my parcel? ${run}`);
  // Gone before the reply: a messenger showing it would mark it read, and a read reply is never emailed.
  await page.goto("about:blank");
  const conv = await data<Conversation>(await api.get(`/api/v2/conversations/${conversation}`));
  const userId = String(conv.user?.id);
  const address = `anna-${run}@example.com`;
  await data(
    await api.post(`/api/v2/users/${userId}/props`, {
      data: { operations: [{ op: "update_or_create", key: "$email", value: address }] },
    }),
  );
  const answer = `It left the warehouse today (${run}).`;
  await data(await shop.reply(conversation, { body: answer }));

  let emailId = "";
  await expect
    .poll(
      async () => {
        const list = await data<EmailDelivery[]>(
          await api.get(`/api/v2/apps/${appId()}/email/deliveries`, { params: { conversation } }),
        );
        const found = list.find((e) => e.kind === "continuity");
        emailId = String(found?.id ?? "");
        return found?.state;
      },
      { timeout: 30_000 },
    )
    .toBe("not_sent");
  const email = await data<Emailed["email"]>(
    await api.get(`/api/v2/apps/${appId()}/email/deliveries/${emailId}`),
  );
  expect(email.text).toContain(answer);
  const openUrl = /^Open the conversation: (\S+)$/m.exec(email.text)?.[1] ?? "";
  expect(openUrl).toBe(`${shop.url}#relay-conversation=${conversation}`);
  const unsubscribe = /^Unsubscribe: (\S+)$/m.exec(email.text)?.[1] ?? "";
  expect(unsubscribe).toMatch(/\/email\/unsubscribe\?t=\d+\.[0-9a-f]{32}$/);
  const u = new URL(unsubscribe);
  return { conversation, userId, address, answer, email, openUrl, unsubscribePath: u.pathname + u.search };
}

// Set E2E_SCREENSHOTS=/some/dir to save a screenshot of each page shown.
async function shot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

async function emailStatus(userId: string): Promise<string | undefined> {
  const user = await data<{ email_status?: string }>(
    await api.get(`/api/v2/users/${userId}`, { params: { email_status: true } }),
  );
  return user.email_status;
}

/** An operator in a browser context of their own, on the Inbox with the conversation open. */
async function operatorOn(browser: Browser, conversation: number) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await logInThroughForm(page, e2e().admin);
  await expect(page).toHaveURL(/\/inbox/);
  await page.goto(`/inbox?c=${conversation}`);
  await expect(page.getByRole("list", { name: "Messages" })).toBeVisible();
  return { page, close: () => context.close() };
}

test("the Inbox lists the visitor's email under the thread and marks their answer by email", async ({
  page,
  browser,
}) => {
  const m = await emailedReply(page);
  const answered = `Thanks, I will wait (${stamp()}).`;
  const raw = [
    `From: Anna <${m.address}>`,
    `To: ${m.email.reply_to}`,
    `Subject: Re: ${m.email.subject}`,
    `Message-ID: <${stamp()}.answer@example.com>`,
    `In-Reply-To: ${m.email.message_id}`,
    `Date: ${new Date().toUTCString()}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    answered,
  ].join("\n");
  const received = await data<{ outcome: string; conversation: number | null }>(
    await api.post(`/api/v2/apps/${appId()}/email/inbound`, { data: { raw } }),
  );
  expect(received).toMatchObject({ outcome: "appended", conversation: m.conversation });

  const op = await operatorOn(browser, m.conversation);
  try {
    const emails = op.page.getByRole("region", { name: "Emails to the visitor" });
    const line = emails.getByTestId("conversation-email");
    await expect(line).toHaveCount(1);
    await expect(line).toHaveAttribute("data-state", "not_sent");
    await expect(line).toHaveText(`Emailed to ${m.address} · not sent: no SMTP server configured (SMTP_URL)`);

    const byEmail = op.page.getByTestId("part-user").filter({ hasText: answered });
    await expect(byEmail.getByTestId("via-email")).toHaveText("· via email");
    // The messenger's message is not marked.
    const fromMessenger = op.page.getByTestId("part-user").filter({ hasText: "Where is my parcel?" });
    await expect(fromMessenger).toBeVisible();
    await expect(fromMessenger.getByTestId("via-email")).toHaveCount(0);
    await expect(op.page.getByTestId("part-admin").filter({ hasText: m.answer })).toBeVisible();
    await shot(op.page, "inbox-thread-email");
  } finally {
    await op.close();
  }
});

test("the emailed link opens the visitor's conversation in the messenger, once", async ({
  page,
  browser,
}) => {
  const m = await emailedReply(page);
  // A tab of its own, as a mail program opens links: the same device (the frame's storage), a fresh view.
  const tab = await page.context().newPage();
  await tab.goto(m.openUrl);
  await expect(tab.locator('iframe[title="Messenger"]')).toBeVisible();
  await expect(messages(tab).getByText(m.answer)).toBeVisible();
  await expect(frameOf(tab).getByRole("textbox", { name: "Message" })).toBeFocused();
  // The hash is gone from the address bar, so a reload shows the page without opening the messenger.
  await expect(tab).toHaveURL(shop.url);
  await tab.reload();
  await expect(launcher(tab)).toBeVisible();
  await expect(tab.locator('iframe[title="Messenger"]')).toBeHidden();

  // Another device is another visitor: the messenger opens, on its home, without the conversation.
  const other = await browser.newContext();
  try {
    const stranger = await other.newPage();
    await stranger.goto(m.openUrl);
    await expect(stranger.locator('iframe[title="Messenger"]')).toBeVisible();
    await expect(frameOf(stranger).getByRole("button", { name: "New conversation" })).toBeVisible();
    await expect(frameOf(stranger).getByText(m.answer)).toHaveCount(0);
    await expect(stranger).toHaveURL(shop.url);
  } finally {
    await other.close();
  }
});

test("the unsubscribe link asks first, unsubscribes on the button, and the Inbox shows it", async ({
  page,
  browser,
}) => {
  const m = await emailedReply(page);
  await page.goto(m.unsubscribePath);
  await expect(page.getByRole("heading", { level: 1, name: "Unsubscribe?" })).toBeVisible();
  // Opening the link (as a mail scanner does) changes nothing.
  expect(await emailStatus(m.userId)).toBe("subscribed");
  await shot(page, "unsubscribe-ask");
  const button = page.getByRole("button", { name: "Unsubscribe" });
  await expect(button).toBeFocused();
  await page.keyboard.press("Enter");
  const done = page.getByRole("status");
  await expect(done).toContainText("You are unsubscribed: no more emails from us.");
  await expect(done.getByRole("heading", { name: "Unsubscribed" })).toBeFocused();
  await shot(page, "unsubscribe-done");
  expect(await emailStatus(m.userId)).toBe("unsubscribed");

  const op = await operatorOn(browser, m.conversation);
  try {
    const side = op.page.getByTestId("visitor-sidebar");
    await expect(side.getByTestId("email-unsubscribed")).toHaveText("Unsubscribed from email");
    await side.getByRole("link", { name: "Open the lead card" }).click();
    await expect(op.page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(op.page.getByTestId("email-unsubscribed")).toHaveText("Unsubscribed from email");
  } finally {
    await op.close();
  }
});

test("a hard bounce of the email shows on the user card and in the Inbox", async ({ page, browser }) => {
  const m = await emailedReply(page);
  // The mail server's delivery report, pasted as the app's operators can (the e2e server has no mail server).
  const report = [
    "From: Mail Delivery System <MAILER-DAEMON@mx.example.com>",
    `To: ${m.email.from.replace(/^.*<|>$/g, "")}`,
    "Subject: Undelivered Mail Returned to Sender",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
    "",
    "--b",
    "Content-Type: text/plain",
    "",
    "The mail could not be delivered.",
    "--b",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; mx.example.com",
    "",
    `Final-Recipient: rfc822; ${m.address}`,
    "Action: failed",
    "Status: 5.1.1",
    "",
    "--b",
    "Content-Type: text/rfc822-headers",
    "",
    `Message-ID: ${m.email.message_id}`,
    "",
    "--b--",
    "",
  ].join("\n");
  const pasted = await data<{ outcome: string }>(
    await api.post(`/api/v2/apps/${appId()}/email/inbound`, { data: { raw: report } }),
  );
  expect(pasted.outcome).toBe("bounce");

  const op = await operatorOn(browser, m.conversation);
  try {
    const side = op.page.getByTestId("visitor-sidebar");
    await expect(side.getByTestId("email-bouncing")).toContainText("Email bouncing");
    await expect(op.page.getByText(/bounced: hard bounce 5\.1\.1/)).toBeVisible();
    await side.getByRole("link", { name: "Open the lead card" }).click();
    await expect(op.page.getByTestId("email-bouncing")).toContainText("Email bouncing");
  } finally {
    await op.close();
  }
});

test("a forged or cut unsubscribe link says so in plain words", async ({ page }) => {
  await page.goto(`/email/unsubscribe?t=1.${"0".repeat(32)}`);
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  // In the page's main: Next's route announcer is an alert too.
  const alert = page.getByRole("main").getByRole("alert");
  await expect(alert).toContainText("Could not unsubscribe");
  await expect(alert).toContainText("This unsubscribe link is not valid.");
  await shot(page, "unsubscribe-invalid");
  // The button stays, for a try after a network failure.
  await expect(page.getByRole("button", { name: "Unsubscribe" })).toBeEnabled();

  await page.goto("/email/unsubscribe");
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    "This unsubscribe link is incomplete. Open the whole link from the email again.",
  );
  await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
});
