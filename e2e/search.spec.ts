import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { inboxState, openInbox, post, startVisitor, tokenApi } from "./support/inbox";

/** Search: Cmd/Ctrl+K from any page, results with the match marked, Enter opens the thread or the lead. */

test.describe.configure({ mode: "serial" });

let context: BrowserContext;
let page: Page;
let api: APIRequestContext;

test.beforeAll(async ({ browser, playwright }) => {
  const e2e = inboxState();
  api = await tokenApi(playwright, e2e);
  ({ context, page } = await openInbox(browser, e2e.admin));
});

test.afterAll(async () => {
  await context?.close();
  await api?.dispose();
});

const word = () => `zq${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const dialog = () => page.getByTestId("search-dialog");

async function openSearch(q: string) {
  await page.keyboard.press("ControlOrMeta+k");
  await expect(dialog()).toBeVisible();
  const box = dialog().getByRole("combobox", { name: "Search messages, notes, visitors and leads" });
  await expect(box).toBeFocused();
  await box.fill(q);
  return box;
}

test("Cmd/Ctrl+K, type a word of a note, Enter opens its thread", async () => {
  const w = word();
  const v = await startVisitor(api, `My parcel never arrived`);
  await post(api, `/api/conversations/${v.conversation}/reply`, {
    body: `Courier says ${w} lost`,
    type: "note",
  });
  await page.goto("/leads");
  await expect(page.getByRole("heading", { level: 1, name: "Leads" })).toBeVisible();

  const box = await openSearch(w);
  const hit = dialog()
    .getByTestId("search-result")
    .filter({ hasText: `Courier says ${w} lost` });
  await expect(hit).toBeVisible();
  await expect(hit.locator("mark")).toHaveText(w);
  await expect(hit).toHaveAttribute("aria-selected", "true");
  await box.press("Enter");

  await expect(page).toHaveURL(new RegExp(`/inbox\\?c=${v.conversation}(&|$)`));
  await expect(dialog()).toBeHidden();
  await expect(page.getByRole("list", { name: "Messages" })).toContainText(`Courier says ${w} lost`);
});

test("arrows move to a lead found by user ID; Enter opens the lead's card; Escape closes", async () => {
  const w = word();
  const v = await startVisitor(api, "Hello there", { userId: `cust-${w}` });
  const box = await openSearch(`cust-${w}`);
  const results = dialog().getByTestId("search-result");
  // The visitor's conversation first, then the lead.
  await expect(results).toHaveCount(2);
  await expect(results.nth(0)).toContainText(`Conversation #${v.conversation}`);
  await expect(results.nth(1)).not.toContainText("Conversation #");
  await box.press("ArrowDown");
  await expect(results.nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(results.nth(1).locator("mark")).toHaveText(`cust-${w}`);
  await box.press("Enter");
  await expect(page).toHaveURL(/\/leads\/users\/\d+$/);

  await openSearch(`cust-${w}`);
  await page.keyboard.press("Escape");
  await expect(dialog()).toBeHidden();
  // The filters apply: the conversation is open, so "Closed" finds it no more.
  const again = await openSearch(`cust-${w}`);
  await dialog().getByLabel("State").selectOption("closed");
  await expect(results).toHaveCount(1);
  await expect(results.first()).not.toContainText("Conversation #");
  await again.press("Escape");
  expect(v.conversation).toBeTruthy();
});
