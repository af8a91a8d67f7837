import { expect, test } from "./support/fixtures";
import { inboxState, openConversation, openInbox, startVisitor, tokenApi } from "./support/inbox";

// Issue #18: what a newcomer's walk through the panel found. Each test failed on the panel before its fix.
test.describe.configure({ timeout: 90_000 });

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
});
