import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { test, expect } from "./support/fixtures";
import { readState } from "./support/state";
import { hostPage } from "../lib/testing/host-page";
import { data, messengerSite, userEvents, siteUser, type MessengerSite } from "./support/messenger";

// A site that installed carrotquest's async snippet and now points it at Relay: connect(key), auth(user_id, hash),
// identify(operations), track(name, params), open(), onReady(fn), addCallback(name, fn), all queued before the
// loader ran. What counts is what the operators see: the user, its props and its events, through the operator API.
let m: MessengerSite;
let secret = "";
/** The site serves a page per test (each its own user): startHostSite reads this map on every request. */
const pages: Record<string, string> = {};

const stamp = () => `${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;

test.beforeAll(async ({ playwright }) => {
  m = await messengerSite(playwright, () => pages);
  // The secret is shown only when made: rotating it is how the site's owner (and this test) learns it.
  secret = (
    await data<{ identity_secret: string }>(
      await m.api.post(`/api/v2/apps/${m.e2e.admin.appId}/messenger/identity_secret`),
    )
  ).identity_secret;
});
test.afterAll(async () => {
  await m?.close();
});

/** The snippet as a carrotquest site has it; the key comes from connect() only (no data-key). */
function carrotPage(userId: string, hash: string, name: string): string {
  const calls = `window.seen = [];
carrotquest.connect(${JSON.stringify(m.key)});
carrotquest.auth(${JSON.stringify(userId)}, ${JSON.stringify(hash)});
carrotquest.identify([
  { op: "update_or_create", key: "$name", value: ${JSON.stringify(name)} },
  { op: "update_or_create", key: "plan", value: "gold" },
  { op: "add", key: "visits", value: 2 }
]);
carrotquest.track("Viewed pricing", { plan: "pro", seats: 3 });
carrotquest.onReady(function () { seen.push("ready"); });
carrotquest.addCallback("messenger_opened", function () { seen.push("opened"); });
carrotquest.addCallback("call_received", function (d) { seen.push("call " + d.method); });
carrotquest.open();`;
  return hostPage({ origin: readState().baseURL, calls });
}

function visit(page: Page, path: string, html: string) {
  pages[path] = html;
  return page.goto(`${m.site.url}${path}`);
}

test("the carrotquest snippet: auth with the hash, identify operations, track, open, onReady, callbacks", async ({
  page,
}) => {
  const userId = `cq-${stamp()}`;
  const hash = crypto.createHmac("sha256", secret).update(userId).digest("hex");
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await visit(page, `/cq-${userId}`, carrotPage(userId, hash, "Ann Carrot"));

  // open() opened it; onReady ran once the frame was ready; the callbacks fired.
  await expect(page.locator('iframe[title="Messenger"]')).toBeVisible();
  const seen = () => page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  await expect.poll(seen).toContain("ready");
  expect(await seen()).toContain("opened");
  await expect.poll(seen).toEqual(expect.arrayContaining(["call auth", "call identify", "call track"]));

  // The operators see the site's user: its user_id, the identified props, the event with its params.
  await expect
    .poll(() => siteUser(m.api, userId))
    .toEqual({ user_id: userId, name: "Ann Carrot", custom: { plan: "gold", visits: 2 } });
  await expect
    .poll(async () =>
      (await userEvents(m.api, userId)).filter((e) => e.type.name === "Viewed pricing").map((e) => e.props),
    )
    .toEqual([{ plan: "pro", seats: 3 }]);
  expect(errors).toEqual([]);
});

test("a forged hash is refused: the visitor stays anonymous, no user gets that user_id", async ({ page }) => {
  const userId = `cq-forged-${stamp()}`;
  const forged = crypto.createHmac("sha256", "not-the-secret").update(userId).digest("hex");
  const refused = page.waitForResponse(
    (r) => r.url().endsWith("/api/v2/messenger/auth") && r.request().method() === "POST",
  );
  await visit(page, `/forged-${userId}`, carrotPage(userId, forged, "Mallory"));
  expect((await refused).status()).toBe(403);
  const res = await m.api.get(`/api/v2/users/${userId}`, { params: { by_user_id: "true" } });
  expect(res.status()).not.toBe(200);
});

test("a user the app already knows: auth merges the visitor into it, then identify and track land on it", async ({
  page,
}) => {
  const userId = `cq-known-${stamp()}`;
  // The site's backend knew the user before it ever opened the messenger.
  await data(
    await m.api.post(`/api/v2/users/${userId}/events`, {
      data: { by_user_id: true, event: "Signed up" },
    }),
  );
  const hash = crypto.createHmac("sha256", secret).update(userId).digest("hex");
  await visit(page, `/known-${userId}`, carrotPage(userId, hash, "Known Carrot"));
  await expect
    .poll(async () => {
      const u = await siteUser(m.api, userId);
      return u && { name: u.name, custom: u.custom };
    })
    .toEqual({ name: "Known Carrot", custom: { plan: "gold", visits: 2 } });
  await expect
    .poll(async () => (await userEvents(m.api, userId)).map((e) => e.type.name).sort())
    // The page view and the visit's start the anonymous visitor had before the auth came with it. The merge keeps
    // the visitor's last heartbeat, so a heartbeat after it starts no second session.
    .toEqual(["$page_view", "$session_start", "Signed up", "Viewed pricing"]);
});
