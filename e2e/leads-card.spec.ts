import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { apiFor, leadsUrl, logIn, openLeads, runId, type Api } from "./support/leads";

const XSS = `<img src=x onerror="window.__xss=1"><script>window.__xss=1</script>`;
// Many steps, each waiting on the server: a loaded machine needs more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

let api: Api;

interface Card {
  props: Record<string, unknown>;
  props_custom: Record<string, unknown>;
  presence: string;
  notes: { id: string | number; body: string }[];
  tags: string[];
}
const card = (id: string) =>
  api.get<Card>(`/api/users/${id}`, { props_custom: true, notes: true, tags: true });

async function openCard(page: Page, id: string) {
  await page.goto(`/leads/users/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

test.beforeAll(async ({ playwright, e2e }) => {
  const request = await playwright.request.newContext({ baseURL: e2e.baseURL });
  api = await apiFor(request, e2e.admin);
});

test.beforeEach(async ({ page, admin }) => {
  await logIn(page, admin);
});

test("events timeline: newest first, older pages, filter by name", async ({ page }) => {
  const userId = runId("ev");
  const id = await api.upsert(userId, { $name: `Eve ${userId}` });
  const start = Math.floor(Date.now() / 1000) - 10_000;
  for (let i = 0; i < 25; i++) {
    await api.post(`/api/users/${userId}/events`, {
      by_user_id: true,
      app: api.appId,
      event: i % 10 === 3 ? "plan_upgraded" : "page_viewed",
      params: { step: `n${i}` },
      created: start + i * 60,
    });
  }
  await openCard(page, id);
  const timeline = page.getByRole("list", { name: "Events timeline" }).getByRole("listitem");
  await expect(timeline).toHaveCount(20);
  await expect(timeline.first()).toContainText("step: n24");
  await expect(timeline.nth(19)).toContainText("step: n5");
  await page.getByRole("button", { name: "Older events" }).click();
  await expect(timeline).toHaveCount(25);
  await expect(timeline.last()).toContainText("step: n0");
  await expect(page.getByRole("button", { name: "Older events" })).toHaveCount(0);

  // Only one name: n3, n13 and n23.
  await page.getByLabel("Events to show").selectOption("plan_upgraded");
  await expect(timeline).toHaveCount(3);
  await expect(timeline.nth(0)).toContainText("step: n23");
  await expect(timeline.nth(2)).toContainText("step: n3");
  for (const item of await timeline.all()) await expect(item).toContainText("plan_upgraded");
  await expect(page.getByRole("button", { name: "Older events" })).toHaveCount(0);
  // Back to every event: the pages read before are still there.
  await page.getByLabel("Events to show").selectOption("");
  await expect(timeline).toHaveCount(25);
  await expect(timeline.first()).toContainText("step: n24");
});

test("notes, tags and custom props are added and deleted, and stay so after a reload", async ({ page }) => {
  const userId = runId("nt");
  const id = await api.upsert(userId, { $name: `Nora ${userId}`, plan: "basic" });
  await openCard(page, id);

  // Notes.
  const notes = page.getByRole("list", { name: "Notes" }).getByRole("listitem");
  const body = `Called about the invoice ${userId}`;
  await page.getByLabel("New note").fill(body);
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(notes.filter({ hasText: body })).toHaveCount(1);
  await expect(page.getByRole("button", { name: `Delete note: ${body.slice(0, 40)}` })).toBeVisible();
  await page.reload();
  await expect(notes.filter({ hasText: body })).toHaveCount(1);
  expect((await card(id)).notes.map((n) => n.body)).toEqual([body]);
  await page.getByRole("button", { name: `Delete note: ${body.slice(0, 40)}` }).click();
  await expect(notes.filter({ hasText: body })).toHaveCount(0);
  await expect.poll(async () => (await card(id)).notes.length).toBe(0);
  await page.reload();
  await expect(page.getByRole("heading", { level: 2, name: "Notes" })).toBeVisible();
  await expect(notes.filter({ hasText: body })).toHaveCount(0);

  // Tags.
  const tags = page.getByRole("list", { name: "Tags" }).getByRole("listitem");
  for (const t of ["vip", "trial"]) {
    await page.getByLabel("New tag").fill(t);
    await page.getByLabel("New tag").press("Enter");
    await expect(tags.filter({ hasText: t })).toHaveCount(1);
  }
  await expect.poll(async () => (await card(id)).tags.sort()).toEqual(["trial", "vip"]);
  await page.getByRole("button", { name: "Remove tag vip" }).click();
  await expect(tags.filter({ hasText: "vip" })).toHaveCount(0);
  await expect.poll(async () => (await card(id)).tags).toEqual(["trial"]);
  await page.reload();
  await expect(tags.filter({ hasText: "trial" })).toHaveCount(1);
  await expect(tags.filter({ hasText: "vip" })).toHaveCount(0);

  // Custom props: add one, delete another.
  await page.getByLabel("New property name").fill("seats");
  await page.getByLabel("New property value").fill("12");
  await page.getByRole("button", { name: "Add property" }).click();
  await expect(page.locator('[data-prop="seats"]')).toContainText("12");
  await expect.poll(async () => (await card(id)).props_custom.seats).toBe(12);
  await page.getByRole("button", { name: "Delete plan", exact: true }).click();
  await expect(page.locator('[data-prop="plan"]')).toHaveCount(0);
  await expect.poll(async () => "plan" in (await card(id)).props_custom).toBe(false);
  await page.reload();
  await expect(page.locator('[data-prop="seats"]')).toContainText("12");
  await expect(page.locator('[data-prop="plan"]')).toHaveCount(0);
});

test("presence and props changes show on the card without a reload", async ({ page }) => {
  const userId = runId("live");
  const id = await api.upsert(userId, { $name: `Liv ${userId}`, stage: "lead" });
  await openCard(page, id);
  await expect(page.getByTestId("presence")).toHaveText("Offline");
  await expect(page.locator('[data-prop="stage"]')).toContainText("lead");
  // The page is not reloaded: whatever changes below came over the socket.
  await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));

  await api.post(`/api/users/${id}/setpresence`, {
    page_url: "https://shop.example/pricing",
    page_title: "Pricing",
  });
  await expect(page.getByTestId("presence")).toHaveText("Online");
  await expect(page.getByText("On Pricing")).toBeVisible();
  await api.post(`/api/users/${id}/setpresence`, { presence: "idle" });
  await expect(page.getByTestId("presence")).toHaveText("Idle");

  await api.post(`/api/users/${id}/props`, {
    operations: [
      { op: "update_or_create", key: "stage", value: "customer" },
      { op: "update_or_create", key: "seats", value: 7 },
      { op: "update_or_create", key: "$name", value: `Olivia ${userId}` },
    ],
  });
  await expect(page.locator('[data-prop="stage"]')).toContainText("customer");
  await expect(page.locator('[data-prop="seats"]')).toContainText("7");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Olivia ${userId}`);
  await api.post(`/api/users/${id}/props`, { operations: [{ op: "delete", key: "stage" }] });
  await expect(page.locator('[data-prop="stage"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});

test("markup in a lead's name, props and events is shown as text and never runs", async ({ page }) => {
  const userId = runId("xss");
  const id = await api.upsert(userId, { $name: XSS, run: userId, note: XSS });
  await api.post(`/api/users/${userId}/events`, {
    by_user_id: true,
    app: api.appId,
    event: XSS,
    params: { [XSS]: XSS },
  });
  await page.addInitScript(() => {
    // A dialog would be the payload running too.
    window.alert = () => ((window as { __xss?: number }).__xss = 1);
  });

  await openLeads(
    page,
    leadsUrl({ type: "and", filters: [{ property_name: "run", type: "str_eq", value: { value: userId } }] }),
  );
  await expect(page.locator(`tr[data-lead-id="${id}"]`).getByRole("link")).toHaveText(XSS);

  await openCard(page, id);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(XSS);
  await expect(page.locator('[data-prop="note"]')).toContainText(XSS);
  const event = page.getByRole("list", { name: "Events timeline" }).getByRole("listitem").first();
  await expect(event).toContainText(XSS);
  await expect(event).toContainText(`${XSS}: ${XSS}`);
  await expect(page.locator("img[src=x]")).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(
    await page
      .locator("script:not([src])")
      .evaluateAll((s) => s.some((x) => x.textContent?.includes("__xss"))),
  ).toBe(false);
});

test("a card's live channels are all accepted: none is asked for before its app is known", async ({
  page,
}) => {
  const userId = runId("ch");
  const id = await api.upsert(userId, { $name: `Chan ${userId}`, run: userId });
  const refused: string[] = [];
  page.on("console", (m) => {
    if (m.text().includes("channels refused")) refused.push(m.text());
  });
  // Subscribed: the socket's frames show each subscribe's acknowledgement.
  const acks: string[] = [];
  page.on("websocket", (ws) =>
    ws.on("framereceived", (f) => {
      if (typeof f.payload === "string" && f.payload.includes('"subscribed"')) acks.push(f.payload);
    }),
  );
  // From the list, in the page: the socket is connected while the card's user still loads.
  await openLeads(
    page,
    leadsUrl({ type: "and", filters: [{ property_name: "run", type: "str_eq", value: { value: userId } }] }),
  );
  await expect.poll(() => acks.some((a) => a.includes(`user_presence_changed.${api.appId}`))).toBe(true);
  await page.locator(`tr[data-lead-id="${id}"]`).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/leads/users/${id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(refused).toEqual([]);
  expect(acks.filter((a) => a.includes('"refused":["'))).toEqual([]);
});
