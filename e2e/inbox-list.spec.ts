import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { inboxState, openInbox, startVisitor, tokenApi } from "./support/inbox";

/** The conversation list past its first pages: windowed rows, the next page on scroll, j/k keeping the row in view. */

test.describe.configure({ mode: "serial" });

let context: BrowserContext;
let page: Page;
let api: APIRequestContext;

test.beforeAll(async ({ browser, playwright }) => {
  const e2e = inboxState();
  api = await tokenApi(playwright, e2e);
  // Three pages of the list (30 a page) whatever the other tests left.
  for (let n = 0; n < 75; n++) await startVisitor(api, `Long list #${n}`);
  ({ context, page } = await openInbox(browser, e2e.admin));
});

test.afterAll(async () => {
  await context?.close();
  await api?.dispose();
});

test("a long list keeps a screenful of rows, loads the next page on scroll and follows j/k", async () => {
  test.slow(); // 75 conversations made through the API on a shared machine
  const list = page.getByRole("list", { name: "Conversation list" });
  const rows = page.getByTestId("conversation-row");
  await expect(rows.first()).toBeVisible();
  const loaded = async () => Number(await list.locator("li").first().getAttribute("aria-setsize"));
  expect(await loaded()).toBe(30);

  // Only the rows in view (and a few around them) are in the page.
  expect(await rows.count()).toBeLessThan(30);
  await page.getByRole("list", { name: "Conversation list" }).evaluate((ul) => {
    ul.parentElement!.scrollTop = ul.parentElement!.scrollHeight;
  });
  await expect.poll(loaded).toBeGreaterThan(30);
  expect(await rows.count()).toBeLessThan(30);

  await list.evaluate((ul) => (ul.parentElement!.scrollTop = 0));
  const current = page.locator('[data-testid="conversation-row"][aria-current="true"]');
  // One key at a time: each moves from the row the last one selected.
  const press = async (key: string, at: number) => {
    await page.locator("body").press(key);
    await expect(list.locator("li", { has: current })).toHaveAttribute("aria-posinset", String(at));
  };
  for (let n = 1; n <= 25; n++) await press("j", n);
  await expect(current).toBeInViewport();
  for (let n = 24; n >= 5; n--) await press("k", n);
  await expect(current).toBeInViewport();
});
