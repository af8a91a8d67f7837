import type { APIRequestContext, BrowserContext, Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { inboxState, openInbox, post, stamp, startVisitor, tokenApi } from "./support/inbox";

/**
 * The panel's two keyboard primitives (components/ui/tabs.tsx, components/ui/dialog.tsx) as operators meet them:
 * the Inbox's status tabs and the Settings tabs; the search dialog, the shortcuts overlay and the visitor drawer.
 */

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

/** The selected tab's panel, found the way assistive technology does: by the tab's `aria-controls`. */
async function expectOwnPanel(tab: Locator) {
  await expect(tab).toHaveAttribute("aria-selected", "true");
  await expect(tab).toHaveAttribute("tabindex", "0");
  const tabId = await tab.getAttribute("id");
  const panelId = await tab.getAttribute("aria-controls");
  expect(tabId).toBeTruthy();
  expect(panelId).toBeTruthy();
  const panel = page.locator(`[id="${panelId}"]`);
  await expect(panel).toBeVisible();
  await expect(panel).toHaveAttribute("role", "tabpanel");
  await expect(panel).toHaveAttribute("aria-labelledby", tabId!);
  return panel;
}

/** Whether focus is on something inside the dialog (not on the dialog box itself, nor behind it). */
const focusInside = (dialog: Locator) =>
  dialog.evaluate((d) => d !== document.activeElement && d.contains(document.activeElement));

async function expectFocusKeptIn(dialog: Locator, presses: number) {
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press("Tab");
    expect(await focusInside(dialog), `after Tab #${i + 1}`).toBe(true);
  }
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press("Shift+Tab");
    expect(await focusInside(dialog), `after Shift+Tab #${i + 1}`).toBe(true);
  }
}

test("the Inbox status tabs move with the arrow keys, Home and End, and each has its panel", async () => {
  await page.goto("/inbox");
  const tabs = page.getByRole("tablist", { name: "Status" });
  await expect(tabs.getByRole("tab")).toHaveCount(3);
  const open = page.getByTestId("tab-open");
  const snoozed = page.getByTestId("tab-delayed");
  const closed = page.getByTestId("tab-closed");

  await open.click();
  const openPanel = await expectOwnPanel(open);
  await expect(
    openPanel.getByTestId("conversation-row").first().or(openPanel.getByTestId("list-empty")),
  ).toBeVisible();
  // One tab stop: only the selected tab is in the Tab order.
  await expect(snoozed).toHaveAttribute("tabindex", "-1");
  await expect(closed).toHaveAttribute("tabindex", "-1");

  await page.keyboard.press("ArrowRight");
  await expect(snoozed).toBeFocused();
  await expectOwnPanel(snoozed);
  await expect(open).toHaveAttribute("aria-selected", "false");
  await expect(page).toHaveURL(/tab=delayed/);

  await page.keyboard.press("ArrowRight");
  await expect(closed).toBeFocused();
  await expectOwnPanel(closed);
  await page.keyboard.press("ArrowRight");
  await expect(open).toBeFocused();
  await expectOwnPanel(open);
  await page.keyboard.press("ArrowLeft");
  await expect(closed).toBeFocused();
  await expectOwnPanel(closed);
  await page.keyboard.press("Home");
  await expect(open).toBeFocused();
  await page.keyboard.press("End");
  await expect(closed).toBeFocused();
  const closedPanel = await expectOwnPanel(closed);
  await expect(
    closedPanel.getByTestId("conversation-row").first().or(closedPanel.getByTestId("list-empty")),
  ).toBeVisible();

  // Tab leaves the strip at once, Shift+Tab comes back to the selected tab.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("tab").filter({ has: page.locator(":focus") })).toHaveCount(0);
  expect(await page.evaluate(() => document.activeElement?.getAttribute("role"))).not.toBe("tab");
  await page.keyboard.press("Shift+Tab");
  await expect(closed).toBeFocused();
  await open.click();
});

test("the Settings tabs answer the same keys", async () => {
  await page.goto("/settings");
  const first = page.getByRole("tab", { name: "API keys" });
  await first.click();
  await expectOwnPanel(first);
  await page.keyboard.press("End");
  const last = page.getByRole("tab", { name: "Operators" });
  await expect(last).toBeFocused();
  const panel = await expectOwnPanel(last);
  await expect(page.getByRole("tabpanel", { name: "Operators" })).toBeVisible();
  await expect(panel.getByRole("heading", { name: "Operators" }).first()).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(first).toBeFocused();
  await expectOwnPanel(first);
  await page.keyboard.press("ArrowLeft");
  await expect(last).toBeFocused();
  await page.keyboard.press("Home");
  await expect(first).toBeFocused();
  await expect(page).toHaveURL(/#api-keys$/);
});

test("the search dialog keeps focus inside and gives it back to its opener", async () => {
  await page.goto("/inbox");
  const opener = page.getByTestId("search-box");
  await opener.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Search" });
  await expect(dialog).toBeVisible();
  const box = dialog.getByRole("combobox", { name: "Search messages, notes, visitors and leads" });
  await expect(box).toBeFocused();
  await expectFocusKeptIn(dialog, 6);

  // Escape closes even with text in the field (a search field would otherwise only clear it).
  await box.fill("anything");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  // A click on the backdrop closes it the same way.
  await opener.click();
  await expect(dialog).toBeVisible();
  await page.mouse.click(8, 790);
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});

test("the shortcuts overlay keeps focus inside and gives it back to its opener", async () => {
  await page.goto("/inbox");
  const opener = page.getByRole("button", { name: "Keyboard shortcuts" });
  await opener.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  await expectFocusKeptIn(dialog, 3);
  // The Inbox behind does not answer its shortcuts meanwhile.
  await page.keyboard.press("j");
  await expect(page).not.toHaveURL(/[?&]c=/);

  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});

test("the visitor drawer keeps focus inside and gives it back to its opener", async () => {
  const name = `Kira Keys ${stamp()}`;
  const userId = `keys-${stamp()}`;
  await post(api, `/api/users/${userId}/props`, {
    by_user_id: true,
    operations: [{ op: "update_or_create", key: "$name", value: name }],
  });
  const v = await startVisitor(api, `Where is my parcel? ${stamp()}`, { userId });
  await page.setViewportSize({ width: 480, height: 800 });
  try {
    await page.goto(`/inbox?c=${v.conversation}`);
    await expect(page.getByTestId("thread-title")).toContainText(name);
    const opener = page.getByRole("button", { name: "Visitor details" });
    await opener.click();
    const dialog = page.getByRole("dialog", { name: "Visitor details" });
    await expect(dialog.getByTestId("visitor-sidebar")).toContainText(name);
    await expect(dialog.getByRole("button", { name: "Close details" })).toBeFocused();
    await expectFocusKeptIn(dialog, 10);

    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});
