import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import {
  inboxState,
  listening,
  openInbox,
  post,
  reply,
  row,
  stamp,
  startVisitor,
  tokenApi,
} from "./support/inbox";

/** The Inbox on a narrow window (a phone, a split screen): one pane at a time, details in a drawer. */

test.describe.configure({ mode: "serial" });

let context: BrowserContext;
let page: Page;
let api: APIRequestContext;

test.beforeAll(async ({ browser, playwright }) => {
  const e2e = inboxState();
  api = await tokenApi(playwright, e2e);
  ({ context, page } = await openInbox(browser, e2e.admin, { width: 480, height: 800 }));
});

test.afterAll(async () => {
  await context?.close();
  await api?.dispose();
});

const list = () => page.getByRole("region", { name: "Conversations" });
const thread = () => page.getByRole("region", { name: "Conversation", exact: true });
const drawer = () => page.getByRole("dialog", { name: "Visitor details" });
const focusInDrawer = () =>
  drawer().evaluate((d) => d !== document.activeElement && d.contains(document.activeElement));

test("at 480 px the operator opens a conversation, replies and goes back to the list", async () => {
  const text = `Hi from a phone ${stamp()}`;
  await listening(api, page);
  const v = await startVisitor(api, text);
  await expect(row(page, v.conversation)).toBeVisible();
  await expect(thread()).toBeHidden();
  // Nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(480);

  await row(page, v.conversation).click();
  await expect(page).toHaveURL(new RegExp(`[?&]c=${v.conversation}`));
  await expect(list()).toBeHidden();
  await expect(thread().getByTestId("part-user").filter({ hasText: text })).toBeVisible();
  const answer = `Answered from a narrow window ${stamp()}`;
  await reply(page, answer);
  const sent = thread().getByTestId("part-admin").filter({ hasText: answer });
  await expect(sent).toHaveCount(1);
  await expect(sent).not.toHaveAttribute("data-pending", "true");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(480);

  await page.getByRole("button", { name: "← Conversations" }).click();
  await expect(page).not.toHaveURL(/[?&]c=/);
  await expect(thread()).toBeHidden();
  await expect(row(page, v.conversation).getByTestId("row-preview")).toContainText(answer);

  // The browser's Back button goes back to the conversation too.
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`[?&]c=${v.conversation}`));
  await expect(thread().getByTestId("part-admin").filter({ hasText: answer })).toBeVisible();
});

test("the visitor details drawer keeps focus while open, closes with Escape and gives focus back", async () => {
  const name = `Nadia Narrow ${stamp()}`;
  const userId = `narrow-${stamp()}`;
  await post(api, `/api/users/${userId}/props`, {
    by_user_id: true,
    operations: [{ op: "update_or_create", key: "$name", value: name }],
  });
  const v = await startVisitor(api, `Where is my order? ${stamp()}`, { userId });
  await page.goto(`/inbox?c=${v.conversation}`);
  await expect(page.getByTestId("thread-title")).toContainText(name);

  const opener = page.getByRole("button", { name: "Visitor details" });
  await opener.click();
  await expect(drawer()).toBeVisible();
  await expect(drawer().getByTestId("visitor-sidebar")).toContainText(name);
  await expect(drawer().getByRole("button", { name: "Close details" })).toBeFocused();

  // Tab and Shift+Tab go round inside the drawer, never to the thread behind it.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    expect(await focusInDrawer()).toBe(true);
  }
  await drawer().getByRole("button", { name: "Close details" }).focus();
  await page.keyboard.press("Shift+Tab");
  expect(await focusInDrawer()).toBe(true);
  await expect(drawer().getByRole("button", { name: "Close details" })).not.toBeFocused();

  // Shortcuts stay off while it is open.
  await drawer().getByRole("button", { name: "Close details" }).focus();
  await page.keyboard.press("j");
  await expect(page).toHaveURL(new RegExp(`[?&]c=${v.conversation}`));

  await page.keyboard.press("Escape");
  await expect(drawer()).toBeHidden();
  await expect(opener).toBeFocused();

  // The button inside closes it as well, and focus goes back the same way.
  await opener.click();
  await expect(drawer()).toBeVisible();
  await drawer().getByRole("button", { name: "Close details" }).click();
  await expect(drawer()).toBeHidden();
  await expect(opener).toBeFocused();
});
