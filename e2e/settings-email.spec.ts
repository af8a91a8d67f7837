import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, logInThroughForm, test } from "./support/fixtures";

/** Settings → Email of the admin's app, reached through the tab strip as an operator would. */
async function openEmail(page: Page, admin: { email: string; password: string }) {
  await logInThroughForm(page, admin);
  await expect(page).toHaveURL(/\/inbox$/);
  await page.goto("/settings");
  await page.getByRole("tab", { name: "Email" }).click();
  await expect(page.getByRole("tab", { name: "Email" })).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/#email$/);
  await expect(page.getByRole("heading", { name: "Sending and receiving" })).toBeVisible();
}

// Set E2E_SCREENSHOTS=/some/dir to save a screenshot of the section.
async function shot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

const stamp = () => Date.now().toString(36);

test.describe("settings: email", () => {
  test("without SMTP the section says emails are not sent, and shows the app's address", async ({
    page,
    admin,
    e2e,
  }) => {
    await openEmail(page, admin);
    const status = page.getByRole("region", { name: "Sending and receiving" });
    // The e2e server has no SMTP_URL.
    await expect(status.getByRole("note")).toContainText("No SMTP server configured (SMTP_URL)");
    await expect(status.getByRole("note")).toContainText("listed below as not sent");
    const address = status.getByTestId("email-address");
    // The domain is INBOUND_EMAIL_DOMAIN's, else PUBLIC_URL's host: whatever the environment gives.
    await expect(address).toHaveText(new RegExp(`^app-${e2e.admin.appId ?? "\\d+"}@[\\w.-]+$`));
    await expect(status.getByRole("button", { name: "Copy address" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Paste an email" })).toBeVisible();
    await shot(page, "settings-email");
  });

  test("an operator's own emails switch off and on, kept after a reload", async ({ page, admin }) => {
    await openEmail(page, admin);
    const mine = page.getByRole("region", { name: "Emails I get" });
    const mentions = mine.getByRole("checkbox", { name: /Mentions/ });
    await expect(mentions).toBeChecked();
    await mentions.click();
    await expect(mentions).not.toBeChecked();
    // The switch is saved when the server has answered: wait for the refetch, then reload.
    await expect(mentions).toBeEnabled();
    await expect
      .poll(async () => (await page.request.get("/api/me/email_notifications")).json() as Promise<unknown>)
      .toMatchObject({ data: { mention: false } });
    await page.reload();
    await expect(
      page.getByRole("region", { name: "Emails I get" }).getByRole("checkbox", { name: /Mentions/ }),
    ).not.toBeChecked();
    await page
      .getByRole("region", { name: "Emails I get" })
      .getByRole("checkbox", { name: /Mentions/ })
      .click();
    await expect
      .poll(async () => (await page.request.get("/api/me/email_notifications")).json() as Promise<unknown>)
      .toMatchObject({ data: { mention: true } });
  });

  test("the sender name and the continuity delay are kept after a reload", async ({ page, admin }) => {
    await openEmail(page, admin);
    const form = page.getByRole("form", { name: "What the app emails" });
    const sender = `Acme e2e ${stamp()}`;
    await form.getByLabel("Sender name").fill(sender);
    // 90 seconds are not whole minutes: the form must keep them in seconds.
    await form.getByRole("combobox", { name: "Unit of the continuity delay" }).selectOption("s");
    await form.getByRole("spinbutton", { name: "Continuity delay" }).fill("90");
    await expect(form.getByText("A reply still unread after 1 minute 30 seconds is emailed.")).toBeVisible();
    await form.getByRole("button", { name: "Save email settings" }).click();
    await expect(form.getByText("Saved.")).toBeVisible();

    await page.reload();
    await expect(page.getByRole("heading", { name: "What the app emails" })).toBeVisible();
    const again = page.getByRole("form", { name: "What the app emails" });
    await expect(again.getByLabel("Sender name")).toHaveValue(sender);
    await expect(again.getByRole("spinbutton", { name: "Continuity delay" })).toHaveValue("90");
    await expect(again.getByRole("combobox", { name: "Unit of the continuity delay" })).toHaveValue("s");

    // Whole minutes come back as minutes.
    await again.getByRole("combobox", { name: "Unit of the continuity delay" }).selectOption("min");
    await again.getByRole("spinbutton", { name: "Continuity delay" }).fill("5");
    await again.getByRole("button", { name: "Save email settings" }).click();
    await expect(again.getByText("Saved.")).toBeVisible();
    await page.reload();
    const last = page.getByRole("form", { name: "What the app emails" });
    await expect(last.getByRole("spinbutton", { name: "Continuity delay" })).toHaveValue("5");
    await expect(last.getByRole("combobox", { name: "Unit of the continuity delay" })).toHaveValue("min");
    await expect(last.getByText("A reply still unread after 5 minutes is emailed.")).toBeVisible();
  });

  test("a local part the API refuses shows its field error and is not saved", async ({ page, admin }) => {
    await openEmail(page, admin);
    const form = page.getByRole("form", { name: "What the app emails" });
    const local = form.getByRole("textbox", { name: "Address" });
    const before = await local.inputValue();
    await local.fill("reply+x");
    await form.getByRole("button", { name: "Save email settings" }).click();
    await expect(form.getByRole("alert")).toContainText("Could not save the email settings");
    await expect(form.getByRole("alert")).toContainText("address_local");
    // The message sits under the field too, and names it as invalid for assistive technology.
    await expect(local).toHaveAttribute("aria-invalid", "true");
    await expect(local).toHaveAccessibleDescription(/\S/);
    // The optimistic address is put back.
    await expect(page.getByTestId("email-address")).toHaveText(new RegExp(`^${before}@`));

    await page.reload();
    await expect(page.getByRole("form", { name: "What the app emails" }).getByLabel("Address")).toHaveValue(
      before,
    );
  });

  test("the delivery log lists nothing sent", async ({ page, admin }) => {
    await openEmail(page, admin);
    const log = page.getByRole("region", { name: "Delivery log" });
    // Run alone the log is empty; after other specs on this server it may hold their operator emails.
    await expect(log.getByTestId("email-log-empty").or(log.getByTestId("email-log"))).toBeVisible();
    if (await log.getByTestId("email-log-empty").isVisible()) {
      await expect(log.getByTestId("email-log-empty")).toHaveText(/^No emails yet\./);
    }
    // Without SMTP nothing is ever sent.
    await log.getByRole("combobox", { name: "State" }).selectOption("sent");
    await expect(log.getByTestId("email-log-empty")).toHaveText("No emails with the state “sent”.");
    await expect(log.getByTestId("email-row")).toHaveCount(0);
  });

  test("a pasted email starts a conversation; the reply it gets is emailed and previewed", async ({
    page,
    admin,
  }) => {
    await openEmail(page, admin);
    const form = page.getByRole("form", { name: "What the app emails" });
    // At once, so the operator's reply below is emailed while the test waits.
    await form.getByRole("spinbutton", { name: "Continuity delay" }).fill("0");
    await expect(form.getByText("A reply is emailed as soon as it is unread.")).toBeVisible();
    // Other specs on this server leave visitors' messages unread: their operator emails (one per operator) would
    // push this test's email off the log's first page.
    const operators = form.getByRole("checkbox", { name: /Email operators/ });
    await operators.uncheck();
    await form.getByRole("button", { name: "Save email settings" }).click();
    await expect(form.getByText("Saved.")).toBeVisible();

    const address = (await page.getByTestId("email-address").textContent()) ?? "";
    const id = stamp();
    const visitor = `sam+${id}@example.com`;
    const subject = `Order question ${id}`;
    const raw = [
      `From: Sam Sample <${visitor}>`,
      `To: ${address}`,
      `Subject: ${subject}`,
      `Message-ID: <${id}.e2e@example.com>`,
      `Date: ${new Date().toUTCString()}`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      `Where is order ${id}?`,
    ].join("\n");
    const paste = page.getByRole("region", { name: "Paste an email" });
    await paste.getByLabel("Message source").fill(raw);
    await paste.getByRole("button", { name: "Process email" }).click();
    const outcome = paste.getByTestId("email-paste-outcome");
    await expect(outcome).toContainText("Started a conversation.");
    const link = outcome.getByRole("link", { name: /^Open conversation #\d+ in the Inbox$/ });
    await link.click();
    await expect(page).toHaveURL(/\/inbox\?c=\d+$/);
    await expect(page.getByRole("list", { name: "Messages" })).toContainText(`Where is order ${id}?`);

    const answer = `It ships tomorrow (${id}).`;
    await page.getByTestId("composer-input").fill(answer);
    await page.getByTestId("composer-input").press("Enter");
    await expect(page.getByRole("list", { name: "Messages" })).toContainText(answer);

    await page.goto("/settings#email");
    const log = page.getByRole("region", { name: "Delivery log" });
    const row = log.getByTestId("email-row").filter({ hasText: visitor });
    // Composed by the continuity job, then refused a send (no SMTP): the log polls until then, Refresh to be sure.
    await expect(async () => {
      await log.getByRole("button", { name: "Refresh" }).click();
      await expect(row).toHaveAttribute("data-state", "not_sent", { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(row).toContainText("Reply to visitor");
    await expect(row).toContainText("not sent");

    const opener = row.getByRole("button", { name: /^Open the email / });
    await opener.click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
    await expect(dialog).toContainText(address);
    await expect(dialog).toContainText(visitor);
    await expect(dialog.getByRole("tab", { name: "HTML" })).toHaveAttribute("aria-selected", "true");
    const frame = dialog.locator("iframe");
    await expect(frame).toHaveAttribute("sandbox", "");
    await expect(dialog.frameLocator("iframe").locator("body")).toContainText(answer);
    await dialog.getByRole("tab", { name: "HTML" }).press("ArrowLeft");
    await expect(dialog.getByRole("tab", { name: "Text" })).toHaveAttribute("aria-selected", "true");
    await expect(dialog.getByRole("tabpanel")).toContainText(answer);
    await shot(page, "settings-email-preview");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    // Back to the defaults: later specs on this server reply to visitors with addresses too.
    await operators.check();
    await form.getByRole("spinbutton", { name: "Continuity delay" }).fill("2");
    await form.getByRole("button", { name: "Save email settings" }).click();
    await expect(form.getByText("Saved.")).toBeVisible();
  });
});
