import { test, expect } from "./support/fixtures";
import { hostPage } from "../lib/testing/host-page";
import { data, messengerSite, type MessengerSite } from "./support/messenger";

// A single-page site: its URL changes without a load (history.pushState, back, a new hash). The loader notices
// and the frame tracks each new URL as a `$page_view`, once per URL in a row.
let m: MessengerSite;

// Buttons for the test to press, as a router's links would call history.
const ROUTER = `<button id="pricing" onclick="history.pushState({}, '', '/app/pricing'); document.title = 'Pricing'">
Pricing</button>
<button id="again" onclick="history.pushState({}, '', '/app/pricing'); history.replaceState({ s: 1 }, '')">
Again</button>
<button id="faq" onclick="location.hash = 'faq'">FAQ</button>`;

test.beforeAll(async ({ playwright }) => {
  m = await messengerSite(playwright, (key, e2e) => ({
    "/app": hostPage({ origin: e2e.baseURL, key, body: ROUTER }),
  }));
});
test.afterAll(async () => {
  await m?.close();
});

interface PageView {
  type: { name: string };
  props: { url?: string; referrer?: string; title?: string };
}

test("pushState, the same URL again, a hash and back: one $page_view per new URL, with the page it left", async ({
  page,
}) => {
  const booted = page.waitForResponse((r) => r.url().endsWith("/api/v2/messenger/boot"));
  const tracked = () => page.waitForResponse((r) => r.url().endsWith("/api/v2/messenger/track"));
  let first = tracked();
  await page.goto(`${m.site.url}/app`);
  const visitor = ((await (await booted).json()) as { data: { visitor: { id: number | string } } }).data
    .visitor;
  await first;

  first = tracked();
  await page.locator("#pricing").click();
  await first;
  // The same URL pushed again and replaced with new state: no new view.
  await page.locator("#again").click();
  first = tracked();
  await page.locator("#faq").click();
  await first;
  first = tracked();
  await page.goBack();
  await first;

  const base = m.site.url;
  await expect
    .poll(async () => {
      const events = await data<PageView[]>(await m.api.get(`/api/v2/users/${visitor.id}/events`));
      return events
        .filter((e) => e.type.name === "$page_view")
        .map((e) => [e.props.url, e.props.referrer])
        .reverse();
    })
    .toEqual([
      [`${base}/app`, ""],
      [`${base}/app/pricing`, `${base}/app`],
      [`${base}/app/pricing#faq`, `${base}/app/pricing`],
      [`${base}/app/pricing`, `${base}/app/pricing#faq`],
    ]);
  // The title the router set after pushing the URL.
  const events = await data<PageView[]>(await m.api.get(`/api/v2/users/${visitor.id}/events`));
  expect(events.find((e) => e.props.url === `${base}/app/pricing`)?.props.title).toBe("Pricing");
});
