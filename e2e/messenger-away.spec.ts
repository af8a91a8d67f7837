import { test, expect } from "./support/fixtures";
import { openInbox } from "./support/inbox";
import { frameOf, messengerSite, openMessenger, type MessengerSite } from "./support/messenger";
import { hostPage } from "../lib/testing/host-page";

// An open messenger learns at once that the team went Away (and came back): pushed on the visitor's socket, not
// read at its next heartbeat. The heartbeats are refused once the messenger is open, so only the push can tell it.
let s: MessengerSite | undefined;

test.beforeAll(async ({ playwright }) => {
  s = await messengerSite(playwright, (key, e2e) => ({ "/help": hostPage({ origin: e2e.baseURL, key }) }));
});
test.afterAll(async () => {
  await s?.close();
});

test("Away set in the panel shows in an open messenger live, and Available again", async ({
  page,
  browser,
}) => {
  // Two browsers and a login on a busy machine.
  test.setTimeout(120_000);
  const site = s!;
  const op = await openInbox(browser, site.e2e.admin);
  const toggle = op.page.getByTestId("availability-toggle");
  try {
    if ((await toggle.getAttribute("data-state")) === "away") await toggle.click();
    await expect(toggle).toHaveAttribute("aria-checked", "true");

    await openMessenger(page, `${site.site.url}/help`);
    const status = frameOf(page).locator("#subtitle");
    await expect(status).not.toHaveText(/away/i);
    await page.route("**/api/v2/messenger/heartbeat", (r) => r.abort());

    const went = Date.now();
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-checked", "false");
    await expect(status).toHaveText(/away/i, { timeout: 10_000 });
    console.log(`messenger-away: Away shown in the messenger ${Date.now() - went} ms after the click`);

    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-checked", "true");
    await expect(status).not.toHaveText(/away/i, { timeout: 10_000 });
  } finally {
    if ((await toggle.getAttribute("data-state")) === "away") await toggle.click();
    await op.context.close();
  }
});
