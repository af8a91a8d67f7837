import type { Page } from "@playwright/test";
import { test, expect } from "./support/fixtures";
import { hostPage } from "../lib/testing/host-page";
import { stamp } from "./support/inbox";
import { data, launcher, messengerSite, subscribed, type MessengerSite } from "./support/messenger";

// The loader on a customer's site: another origin (its own port) than the server that serves /messenger.js.
let m: MessengerSite;
// The app's real key: the frame boots a visitor with it (an unknown key's refused boot is a console error).
let key = "";

const queued = () => `window.seen = [];
carrotquest.connect("${key}", { lang: "en" });
carrotquest.onReady(function () { seen.push("ready"); });
carrotquest.addCallback("call_received", function (d) { seen.push(d.method + " " + JSON.stringify(d.args)); });
carrotquest.track("Viewed pricing", { plan: "pro" });
Relay("identify", [{ op: "update_or_create", key: "$name", value: "Ann" }]);`;

// Styles a careless site might have: none may hide or restyle the launcher.
const HOSTILE_CSS =
  "<style>button, div, iframe { display: none !important; } * { font-size: 40px !important; " +
  "color: red !important; position: static !important; }" +
  "body > :last-child { display: none !important; transform: scale(0.5) !important; }</style>";

// Clicks the launcher the moment it is in the page: before the frame is preloaded (after the load event).
const CLICK_AT_ONCE = `<script>new MutationObserver(function (_, o) {
  var host = document.querySelector("relay-messenger");
  if (!host) return;
  o.disconnect();
  window.framesAtClick = host.shadowRoot.querySelectorAll("iframe").length;
  host.shadowRoot.querySelector("button").click();
}).observe(document.documentElement, { childList: true, subtree: true });</script>`;

test.beforeAll(async ({ playwright }) => {
  m = await messengerSite(playwright, (k, e2e) => {
    key = k;
    return {
      "/queued": hostPage({ origin: e2e.baseURL, calls: queued() }),
      "/shop": hostPage({ origin: e2e.baseURL, key, head: HOSTILE_CSS }),
      "/cold": hostPage({ origin: e2e.baseURL, key, head: CLICK_AT_ONCE }),
    };
  });
});
test.afterAll(async () => {
  await m?.close();
});

function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    // The frame's visitor API answers are messenger-frame.spec.ts's: here, the loader's and the frame's code.
    if (m.type() === "error" && !m.location().url.includes("/api/v2/messenger/")) errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  return errors;
}

test("calls queued before the loader run after it, in order; later calls act at once", async ({
  page,
  e2e,
}) => {
  const errors = errorsOf(page);
  await page.goto(`${m.site.url}/queued`);
  const seen = () => page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  await expect
    .poll(seen)
    .toEqual([
      "ready",
      'connect [{"lang":"en"}]',
      'track ["Viewed pricing",{"plan":"pro"}]',
      'identify [[{"op":"update_or_create","key":"$name","value":"Ann"}]]',
    ]);
  // The stubs are replaced: a call now is forwarded at once, and onReady after ready runs at once.
  const late = await page.evaluate(() => {
    const w = window as unknown as {
      carrotquest: Record<string, (...a: unknown[]) => void>;
      Relay: ((...a: unknown[]) => void) & { q?: unknown };
    };
    w.carrotquest.track!("Added to cart");
    let ranNow = false;
    w.Relay("onReady", () => (ranNow = true));
    return { ranNow, queue: w.Relay.q ?? null };
  });
  expect(late).toEqual({ ranNow: true, queue: null });
  await expect.poll(seen).toContain('track ["Added to cart"]');
  // removeCallback(name, fn) stops that listener only.
  type Cq = { carrotquest: Record<string, (...a: unknown[]) => void>; seen: string[]; mine?: unknown };
  await page.evaluate(() => {
    const w = window as unknown as Cq;
    w.mine = (d: { args: unknown[] }) => w.seen.push(`mine ${String(d.args[0])}`);
    w.carrotquest.addCallback!("call_received", w.mine);
    w.carrotquest.track!("One");
  });
  await expect.poll(seen).toContain("mine One");
  await page.evaluate(() => {
    const w = window as unknown as Cq;
    w.carrotquest.removeCallback!("call_received", w.mine);
    w.carrotquest.track!("Two");
  });
  await expect.poll(seen).toContain('track ["Two"]');
  expect(await seen()).not.toContain("mine Two");
  // The key came from connect(): the frame was opened with it.
  await expect(page.locator('iframe[title="Messenger"]')).toHaveAttribute(
    "src",
    `${e2e.baseURL}/messenger/frame.html?key=${key}`,
  );
  expect(errors).toEqual([]);
});

test("the launcher is a labelled button the host page's CSS cannot hide or restyle", async ({ page }) => {
  const errors = errorsOf(page);
  await page.goto(`${m.site.url}/shop`);
  const button = launcher(page);
  await expect(button).toBeVisible();
  await expect(button).toHaveAttribute("aria-expanded", "false");
  const box = (await button.boundingBox())!;
  expect(box.width).toBe(56);
  // Bottom right of the 1280×800 viewport, 20 px in.
  expect(Math.round(box.x + box.width)).toBe(1260);
  expect(Math.round(box.y + box.height)).toBe(780);
  expect(await button.evaluate((b) => getComputedStyle(b).color)).toBe("rgb(255, 255, 255)");
  expect(errors).toEqual([]);
});

test("a click opens the messenger; Escape in it closes it and focus returns to the launcher", async ({
  page,
  baseURL,
}) => {
  const errors = errorsOf(page);
  await page.goto(`${m.site.url}/shop`);
  await launcher(page).click();
  const iframe = page.locator('iframe[title="Messenger"]');
  await expect(iframe).toBeVisible();
  expect(await iframe.getAttribute("src")).toBe(`${baseURL}/messenger/frame.html?key=${key}`);
  await expect(launcher(page, "Close messages")).toHaveAttribute("aria-expanded", "true");
  const frame = page.frameLocator('iframe[title="Messenger"]');
  await expect(frame.getByRole("button", { name: "Close messages" })).toBeFocused();

  // Only the frame may close it: the host page posting the same message is ignored. Messages are handed out in
  // the order posted, so once a second one has arrived the loader has had the first.
  await page.evaluate(async () => {
    window.postMessage({ tag: "relay-messenger", type: "close" }, "*");
    await new Promise<void>((resolve) => {
      window.addEventListener("message", (e: MessageEvent<{ tag?: string }>) => {
        if (e.data?.tag === "after-the-close") resolve();
      });
      window.postMessage({ tag: "after-the-close" }, "*");
    });
  });
  await expect(iframe).toBeVisible();
  await expect(launcher(page, "Close messages")).toHaveAttribute("aria-expanded", "true");

  await page.keyboard.press("Escape");
  await expect(iframe).toBeHidden();
  await expect(launcher(page)).toBeFocused();
  expect(errors).toEqual([]);
});

test("from the keyboard: Enter and Space open it, the frame's close button closes it", async ({ page }) => {
  await page.goto(`${m.site.url}/shop`);
  await expect(launcher(page)).toBeVisible();
  const iframe = page.locator('iframe[title="Messenger"]');
  const frame = page.frameLocator('iframe[title="Messenger"]');
  const close = frame.getByRole("button", { name: "Close messages" });
  // The launcher comes right after the page's last link. Focus starts on the link itself: a first Tab from the
  // page's start once went nowhere on a loaded machine.
  await page.getByRole("link", { name: "A link" }).focus();
  await page.keyboard.press("Tab");
  // What has the focus, named, so a failure says where it went.
  const focused = () =>
    page.evaluate(() => {
      let el = document.activeElement;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
      return el
        ? `${el.tagName.toLowerCase()} ${el.getAttribute("aria-label") ?? el.textContent ?? ""}`
        : "none";
    });
  await expect.poll(focused).toBe("button Open messages");
  await expect(launcher(page)).toBeFocused();

  await page.keyboard.press("Enter");
  await expect(iframe).toBeVisible();
  await expect(close).toBeFocused();
  // Focus stays inside the open messenger: Tab past its last control comes back to the first, Shift+Tab the other
  // way. How many controls its home has depends on whether the team is online (away, it adds the email form).
  const start = frame.getByRole("button", { name: "New conversation" });
  await expect(start).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(start).toBeFocused();
  const closeFocused = () => close.evaluate((el) => el === document.activeElement);
  let tabs = 0;
  do {
    await page.keyboard.press("Tab");
    tabs += 1;
  } while (!(await closeFocused()) && tabs < 6);
  await expect(close).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(close).not.toBeFocused();
  await expect(frame.locator(":focus")).toHaveCount(1);
  await page.keyboard.press("Tab");
  await expect(close).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(launcher(page)).toBeFocused();

  await page.keyboard.press("Space");
  await expect(iframe).toBeVisible();
  await expect(close).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(iframe).toBeHidden();
  await expect(launcher(page)).toBeFocused();
});

test("a click before the frame exists creates it, opens it and puts focus inside once it is ready", async ({
  page,
}) => {
  await page.goto(`${m.site.url}/cold`);
  expect(await page.evaluate(() => (window as unknown as { framesAtClick: number }).framesAtClick)).toBe(0);
  await expect(page.locator('iframe[title="Messenger"]')).toBeVisible();
  const frame = page.frameLocator('iframe[title="Messenger"]');
  await expect(frame.getByRole("button", { name: "Close messages" })).toBeFocused();
  await expect(page.locator('iframe[title="Messenger"]')).toHaveCount(1);
});

test("news.js comes only with news: none for a new visitor; an unread reply brings it, and its badge", async ({
  page,
}) => {
  const asked: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/messenger/news.js")) asked.push(r.url());
  });
  const booted = page.waitForResponse((r) => r.url().endsWith("/api/v2/messenger/boot"));
  const live = subscribed(page);
  await page.goto(`${m.site.url}/shop`);
  const visitor = ((await (await booted).json()) as { data: { visitor: { id: number } } }).data.visitor;
  // Booted (its unread count told to the loader) and live: nothing unread, nothing to preview, no chunk.
  await live;
  await expect(launcher(page)).toBeVisible();
  expect(asked).toEqual([]);

  // An operator's message while the messenger is closed: counted by the launcher's label, drawn by the chunk's badge.
  const chunk = page.waitForResponse((r) => r.url().includes("/messenger/news.js"));
  await data(
    await m.api.post(`/api/v2/users/${visitor.id}/sendmessage`, { data: { body: `Hi ${stamp()}` } }),
  );
  await expect(launcher(page, "Open messages, 1 unread")).toBeVisible();
  const res = await chunk;
  // Asked for by its version, so cached for good.
  expect(res.url()).toMatch(/\/messenger\/news\.js\?v=[\w-]{8}$/);
  expect(res.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  await expect(page.locator("relay-messenger .b")).toHaveText("1");
  // Opened and closed: the chunk, once here, is not asked for again.
  await launcher(page, "Open messages, 1 unread").click();
  await expect(launcher(page, "Close messages")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.locator("relay-messenger .b")).toHaveText("1");
  expect(asked).toHaveLength(1);
});
