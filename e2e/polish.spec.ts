import { expect, logInThroughForm, test } from "./support/fixtures";
import { inboxState, openConversation, openInbox, row, startVisitor, tokenApi } from "./support/inbox";
import { apiFor, type Api } from "./support/leads";

// What a newcomer's walk through the panel found. Each test failed on the panel before its fix. The
// Leads' findings are in polish-leads.spec.ts.
test.describe.configure({ timeout: 90_000 });

let api: Api;

test.beforeAll(async ({ playwright, e2e }) => {
  const request = await playwright.request.newContext({ baseURL: e2e.baseURL });
  api = await apiFor(request, e2e.admin);
});

test.describe("inbox", () => {
  test("Assign to me and Close keep their places, and the header leaves the thread room", async ({
    browser,
    playwright,
  }) => {
    const e2e = inboxState();
    const token = await tokenApi(playwright, e2e);
    const visitor = await startVisitor(token, `Polish header ${Date.now()}`);
    const { context, page } = await openInbox(browser, e2e.admin);
    try {
      await openConversation(page, visitor.conversation);
      const assign = page.getByRole("button", { name: "Assign to me" });
      const close = page.getByRole("button", { name: "Close", exact: true });
      const before = await close.boundingBox();
      const spot = (await assign.boundingBox())!;
      await assign.click();
      await expect(page.getByLabel("Assignee", { exact: true })).toHaveValue(/\d+/);
      // What now sits where "Assign to me" was is not Close: a double click does not close the conversation.
      expect(await close.boundingBox()).toEqual(before);
      const under = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x!, y!)?.closest("button")?.textContent ?? "",
        [spot.x + spot.width / 2, spot.y + spot.height / 2],
      );
      expect(under).not.toMatch(/^Close$/);

      // At 1280 × 800 the header is at most two rows and the thread keeps most of the height.
      const head = (await page.getByTestId("conversation-header").boundingBox())!;
      const thread = (await page.getByTestId("thread").boundingBox())!;
      expect(head.height).toBeLessThanOrEqual(96);
      expect(thread.height).toBeGreaterThan(450);
    } finally {
      await context.close();
      await token.dispose();
    }
  });

  test("sidebar dates, one Add note, a tag button, an honest assign line, names for screen readers, a favicon", async ({
    browser,
    playwright,
  }) => {
    const e2e = inboxState();
    const token = await tokenApi(playwright, e2e);
    const visitor = await startVisitor(token, `Polish small ${Date.now()}`);
    await api.upsert(visitor.userId, { $last_seen: "2026-01-02T03:04:05" });
    const { context, page } = await openInbox(browser, e2e.admin);
    try {
      await openConversation(page, visitor.conversation);
      const side = page.getByTestId("visitor-sidebar");
      const lastSeen = side
        .locator("div", { has: page.locator("dt", { hasText: "Last seen" }) })
        .locator("dd");
      await expect(lastSeen).toContainText("2026");
      await expect(lastSeen).not.toContainText("T03:04");

      await expect(page.getByTestId("thread-title")).toHaveAccessibleName(/\S Open$/);
      await expect(row(page, visitor.conversation)).not.toHaveAccessibleName(/Offline\s*Offline/);

      await page.getByRole("button", { name: "Assign to me" }).click();
      await expect(
        page.getByTestId("part-system").filter({ hasText: "You assigned the conversation to yourself" }),
      ).toBeVisible();

      // The composer's note goes into the thread; the sidebar's is about the visitor: two names.
      await page.getByRole("radio", { name: "Note" }).click();
      await expect(page.getByRole("button", { name: "Add note", exact: true })).toHaveCount(1);
      await expect(side.getByRole("button", { name: "Add visitor note" })).toBeVisible();

      const tag = `polish-${Date.now()}`;
      await page.getByRole("button", { name: /^Snooze and tags/ }).click();
      await page.getByLabel("Add a tag").fill(tag);
      await page.getByRole("button", { name: "Add tag", exact: true }).click();
      await expect(page.getByRole("button", { name: `Remove tag ${tag}` })).toBeVisible();

      const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
      expect(icon).toBeTruthy();
      expect((await page.request.get(icon!)).ok()).toBe(true);
    } finally {
      await context.close();
      await token.dispose();
    }
  });
});

test.describe("live updates without WebSockets", () => {
  for (const [how, block] of [
    ["refused", (ws: { close: () => Promise<void> }) => void ws.close()],
    // A proxy that takes the upgrade and passes nothing: no error, the socket just never opens.
    ["swallowed", () => undefined],
  ] as const) {
    test(`WebSockets ${how}: the panel falls back to long-polling and gets live messages`, async ({
      browser,
      playwright,
    }) => {
      const e2e = inboxState();
      const token = await tokenApi(playwright, e2e);
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.routeWebSocket(/\/socket\.io\//, block);
      const polled: string[] = [];
      context.on("request", (r) => {
        if (r.url().includes("transport=polling")) polled.push(r.url());
      });
      const page = await context.newPage();
      try {
        await logInThroughForm(page, e2e.admin);
        await expect(page).toHaveURL(/\/inbox/);
        await expect(page.getByTestId("connection-status")).toHaveAttribute("data-state", "connected", {
          timeout: 20_000,
        });
        expect(polled.length).toBeGreaterThan(0);
        await expect(page.getByTestId("count-open")).not.toHaveText("–");
        await expect(async () => {
          const v = await startVisitor(token, `Over polling ${Date.now()}`);
          await expect(row(page, v.conversation)).toBeVisible({ timeout: 3_000 });
        }).toPass({ timeout: 20_000 });
      } finally {
        await context.close();
        await token.dispose();
      }
    });
  }

  test("when no transport gets through, the panel says live updates are off", async ({ browser }) => {
    const e2e = inboxState();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.routeWebSocket(/\/socket\.io\//, (ws) => void ws.close());
    await context.route(/\/socket\.io\/.*transport=polling/, (route) => route.abort());
    const page = await context.newPage();
    try {
      await logInThroughForm(page, e2e.admin);
      await expect(page).toHaveURL(/\/inbox/);
      await expect(page.getByTestId("connection-status")).toContainText("Live updates off", {
        timeout: 20_000,
      });
      await expect(page.getByRole("status").filter({ hasText: "Live updates off" })).toBeVisible();
    } finally {
      await context.close();
    }
  });
});
