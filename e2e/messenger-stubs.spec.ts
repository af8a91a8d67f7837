import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { test, expect } from "./support/fixtures";
import { stamp } from "./support/inbox";
import { readState } from "./support/state";
import { installSnippet } from "../lib/messenger/install-snippet";
import type { Message, MessageStats } from "../lib/messages/schemas";
import { data, launcher, messengerSite, userEvents, siteUser, type MessengerSite } from "./support/messenger";

// The stubs sites have in the wild, each on a page of another origin: carrotquest's one-tuple stub (one array per
// call), its two-push stub (a name, then `arguments`), and our install snippet's own. Calls are made before the
// loader has run (queued) and after (a reference to the stub kept by the page, a push onto the queue by hand,
// Relay): what counts is what the operators see through the operator API.
let m: MessengerSite;
let secret = "";
const pages: Record<string, string> = {};
const made: Message[] = [];

test.beforeAll(async ({ playwright }) => {
  m = await messengerSite(playwright, () => pages);
  secret = (
    await data<{ identity_secret: string }>(
      await m.api.post(`/api/v2/apps/${m.e2e.admin.appId}/messenger/identity_secret`),
    )
  ).identity_secret;
});
test.afterAll(async () => {
  // Archived: a later spec's site on the same port triggers none of them.
  for (const msg of made)
    await m?.api.post(`/api/apps/${msg.app}/messages/${msg.id}`, { data: { status: "archived" } });
  await m?.close();
});

// As carrotquest's stubs list them: their own list, not ours (API_METHODS), which a site never copied.
const METHODS = JSON.stringify([
  "connect",
  "auth",
  "identify",
  "track",
  "trackMessageInteraction",
  "open",
  "onReady",
  "addCallback",
  "removeCallback",
]);
const RELAY_STUB = "window.Relay=window.Relay||function(){(Relay.q=Relay.q||[]).push(arguments)};";

type Shape = "one-tuple" | "two-push" | "install snippet";
/** Each shape's stub and loader tag, as the site has them in its head. */
function stubOf(shape: Shape): string {
  const loader = `<script async src="${readState().baseURL}/messenger.js"></script>`;
  if (shape === "install snippet") return installSnippet(readState().baseURL, m.key);
  const push =
    shape === "one-tuple"
      ? "carrotquestasync.push([m].concat([].slice.call(arguments)))"
      : "carrotquestasync.push(m, arguments)";
  return (
    `<script>${RELAY_STUB}window.carrotquestasync=[];window.carrotquest={};` +
    `${METHODS}.forEach(function(m){carrotquest[m]=function(){${push}}});</script>${loader}`
  );
}

/** One push by hand after load, in the shape's own form. */
const directPush = (shape: Shape) =>
  shape === "one-tuple"
    ? `carrotquestasync.push(["track", "Pushed directly", { n: 1 }])`
    : `carrotquestasync.push("track", (function () { return arguments; })("Pushed directly", { n: 1 }))`;

/**
 * A page whose calls run before the loader (right after the stub) and keep references to the stubs, which it
 * calls with `window.after()` once the loader has run.
 */
function sitePage(shape: Shape, userId: string, hash: string, name: string): string {
  const before = `window.seen = [];
window.loadedFirst = !!(window.Relay && Relay.loaded);
var kept = { track: carrotquest.track, identify: carrotquest.identify };
carrotquest.connect(${JSON.stringify(m.key)});
carrotquest.auth(${JSON.stringify(userId)}, ${JSON.stringify(hash)});
carrotquest.identify({ $name: ${JSON.stringify(name)}, plan: "gold" });
carrotquest.track("Viewed pricing", { plan: "pro", seats: 3 });
carrotquest.onReady(function () { seen.push("ready"); });
carrotquest.addCallback("messenger_opened", function () { seen.push("opened"); });
carrotquest.addCallback("call_received", function (d) { seen.push("call " + d.method); });
carrotquest.addCallback("auth_refused", function (d) { seen.push("refused " + d.user_id + " " + d.status); });
carrotquest.open();
window.after = function () {
  kept.identify([{ op: "add", key: "visits", value: 2 }]);
  kept.track("Chose plan", { plan: "gold" });
  Relay("track", "Asked for a demo", { via: "relay" });
  ${directPush(shape)};
};`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A customer's shop</title>` +
    `${stubOf(shape)}<script>${before}</script></head><body><h1>A customer's shop</h1></body></html>`
  );
}

function visit(page: Page, path: string, html: string) {
  pages[path] = html;
  return page.goto(`${m.site.url}${path}`);
}

const seen = (page: Page) => page.evaluate(() => (window as unknown as { seen: string[] }).seen);
const loaded = (page: Page) =>
  page.waitForFunction(() => (window as unknown as { Relay?: { loaded?: boolean } }).Relay?.loaded === true);
const hashOf = (userId: string, key = secret) =>
  crypto.createHmac("sha256", key).update(userId).digest("hex");

for (const shape of ["one-tuple", "two-push", "install snippet"] as const) {
  test(`${shape} stub: calls before and after the loader reach the user`, async ({ page }) => {
    const userId = `stub-${shape.replace(" ", "-")}-${stamp()}`;
    const errors: string[] = [];
    const unknown: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (msg) => msg.text().includes("unknown method") && unknown.push(msg.text()));
    await visit(page, `/${userId}`, sitePage(shape, userId, hashOf(userId), "Ann Stub"));

    // Queued before the loader, then replayed: open() opened it, onReady and the callbacks ran.
    expect(await page.evaluate(() => (window as unknown as { loadedFirst: boolean }).loadedFirst)).toBe(
      false,
    );
    await expect(page.locator('iframe[title="Messenger"]')).toBeVisible();
    await expect.poll(() => seen(page)).toContain("ready");
    expect(await seen(page)).toContain("opened");
    await expect
      .poll(() => seen(page))
      .toEqual(expect.arrayContaining(["call auth", "call identify", "call track"]));

    await loaded(page);
    await page.evaluate(() => (window as unknown as { after: () => void }).after());

    await expect
      .poll(() => siteUser(m.api, userId))
      .toEqual({ user_id: userId, name: "Ann Stub", custom: { plan: "gold", visits: 2 } });
    await expect
      .poll(async () =>
        Object.fromEntries(
          (await userEvents(m.api, userId))
            .filter((e) => !e.type.name.startsWith("$"))
            .map((e) => [e.type.name, e.props]),
        ),
      )
      .toEqual({
        "Viewed pricing": { plan: "pro", seats: 3 },
        "Chose plan": { plan: "gold" },
        "Asked for a demo": { via: "relay" },
        "Pushed directly": { n: 1 },
      });
    expect(errors).toEqual([]);
    expect(unknown).toEqual([]);
  });
}

test("a refused hash reaches the page's auth_refused callback; onReady fires for the anonymous visitor", async ({
  page,
}) => {
  const userId = `stub-forged-${stamp()}`;
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await visit(page, `/${userId}`, sitePage("one-tuple", userId, hashOf(userId, "not-the-secret"), "Mallory"));
  await expect.poll(() => seen(page)).toEqual(expect.arrayContaining(["ready", `refused ${userId} 403`]));
  const res = await m.api.get(`/api/v2/users/${userId}`, { params: { by_user_id: "true" } });
  expect(res.status()).not.toBe(200);
  expect(errors).toEqual([]);
});

test("trackMessageInteraction: a pop-up the site shows itself counts its click (and so its read)", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const appId = m.e2e.admin.appId!;
  const path = `/interaction-${stamp()}`;
  const title = `A gift ${stamp()}`;
  const msg = await data<Message>(
    await m.api.post(`/api/apps/${appId}/messages`, {
      data: {
        name: `E2E ${stamp()}`,
        kind: "popup",
        content: { title, body: "Ten percent off today." },
        trigger: { event: "$page_view", url: `${m.site.url}${path}*` },
        timeout: 1,
      },
    }),
  );
  made.push(msg);
  const warnings: string[] = [];
  page.on("console", (c) => c.type() === "warning" && warnings.push(c.text()));
  pages[path] =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Offers</title>` +
    `${installSnippet(readState().baseURL, m.key)}</head><body><h1>Offers</h1></body></html>`;
  await page.goto(`${m.site.url}${path}`);
  const preview = page.getByRole("button", { name: `${title}: Ten percent off today.` });
  await expect(preview).toBeVisible({ timeout: 60_000 });

  // The send's ID as the site's own code would have it: here, from the visitor's list after a reload.
  const listed = page.waitForResponse(async (r) => {
    if (!r.url().endsWith("/api/v2/messenger/messages") || r.request().method() !== "GET") return false;
    return ((await r.json()) as { data: unknown[] }).data.length > 0;
  });
  await page.reload();
  const [sent] = ((await (await listed).json()) as { data: { send: number }[] }).data;
  await loaded(page);

  // Bad calls warn and send nothing; the good one is recorded, and the messenger stops previewing it.
  await page.evaluate((send) => {
    const cq = (window as unknown as { carrotquest: Record<string, (...a: unknown[]) => void> }).carrotquest;
    cq.trackMessageInteraction!("{{ sending_id }}", "read");
    cq.trackMessageInteraction!(send, "hovered");
    cq.trackMessageInteraction!(String(send), "clicked");
  }, sent!.send);
  await expect
    .poll(
      async () =>
        (await data<MessageStats>(await m.api.get(`/api/apps/${appId}/messages/${msg.id}/stats`))).sent,
    )
    .toMatchObject({ read: 1, clicked: 1 });
  await expect(preview).toBeHidden();
  await expect(launcher(page)).toBeVisible();
  expect(warnings.filter((w) => w.includes("trackMessageInteraction"))).toHaveLength(2);
});
