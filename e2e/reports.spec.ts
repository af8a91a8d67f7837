import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { formatDuration } from "../lib/client/format-duration";
import { expect, test } from "./support/fixtures";
import { apiFor, logIn, runId, type Api } from "./support/leads";

// Screenshots for the docs are taken only when asked (E2E_SCREENSHOTS=docs/screenshots), never by the suite itself.
const SHOTS = process.env.E2E_SCREENSHOTS;

// Seeding through the API stamps every part now: the history falls on today, the last day of each preset.
test.describe.configure({ timeout: 180_000 });

const CARDS = ["conversations", "leads", "first-response", "time-to-close", "busiest-hours", "operators"];
const run = runId("reports");
let api: Api;
let adminId: string;
/** An operator of their own, assigned one conversation answered 20 seconds after it started. */
let slowId: string;

const today = () => new Date().toISOString().slice(0, 10);
const dayOff = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const from30 = () => dayOff(-29);

test.beforeAll(async ({ playwright, e2e }) => {
  const request = await playwright.request.newContext({ baseURL: e2e.baseURL });
  api = await apiFor(request, e2e.admin);
  const admins = await api.get<{ id: number | string; email: string }[]>(`/api/apps/${api.appId}/admins`);
  adminId = String(admins.find((a) => a.email === e2e.admin.email)!.id);
  // Operators are added by an owner's session (API tokens may not), as the Operators page does.
  const me = (await (await request.get("/api/auth/me")).json()) as { data: { csrf_token: string } };
  const added = await request.post(`/api/apps/${api.appId}/admins`, {
    headers: { "X-CSRF-Token": me.data.csrf_token },
    data: { email: `slow@${run}.test`, name: `Slow ${run}`, password: `pw-${run}-long-enough` },
  });
  expect(added.ok(), await added.text()).toBe(true);
  const slow = ((await added.json()) as { data: { id: number | string } }).data;
  slowId = String(slow.id);
  const asker = await api.upsert(`${run}-slow`, {});
  const waiting = await api.post<{ id: number | string }>(`/api/users/${asker}/startconversation`, {
    body: "Anyone there?",
  });
  // After the answer, not before the request: the server stamps the question somewhere in between.
  const asked = Date.now();
  await api.post(`/api/conversations/${waiting.id}/assign`, { admin: slowId });
  for (let i = 0; i < 6; i++) {
    const user = await api.upsert(`${run}-${i}`, { $email: `r${i}@${run}.test` });
    const c = await api.post<{ id: number | string }>(`/api/users/${user}/startconversation`, {
      body: `Hi ${i}`,
    });
    if (i < 4) await api.post(`/api/conversations/${c.id}/reply`, { body: `Hello ${i}` });
    if (i < 2) await api.post(`/api/conversations/${c.id}/assign`, { admin: adminId });
    if (i % 2 === 0) await api.post(`/api/conversations/${c.id}/close`, {});
  }
  // The answer 20 seconds after the question (the seeding above fills part of the wait).
  await new Promise((r) => setTimeout(r, Math.max(0, asked + 20_000 - Date.now())));
  await api.post(`/api/conversations/${waiting.id}/reply`, { body: "Sorry, here now", from_admin: slowId });
});

/** The cells of a card's table view, header first, as the CSV carries them. */
async function tableOf(page: Page, card: string): Promise<string[][]> {
  const section = page.getByTestId(`report-${card}`);
  await section.getByRole("button", { name: "Table", exact: true }).click();
  const table = page.getByTestId(`report-${card}-table`);
  await expect(table).toBeVisible();
  return table
    .locator("tr")
    .evaluateAll((rows) =>
      rows.map((r) => Array.from(r.querySelectorAll("th,td")).map((c) => c.textContent ?? "")),
    );
}

test("every chart renders for a seeded history; filters change them; CSV equals the table", async ({
  page,
  admin,
}) => {
  await logIn(page, admin);
  await page.goto("/reports");
  await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
  for (const card of CARDS)
    await expect(page.getByTestId(`report-${card}`).locator("svg[role=img]")).toBeVisible();
  await expect(page.getByRole("link", { name: "Reports" })).toHaveAttribute("aria-current", "page");

  await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "reports.png"), fullPage: true });

  // The table shows what the API answers for the same range.
  const want = await api.get<{ series: { day: string; started: number; closed: number }[] }>(
    `/api/apps/${api.appId}/reports/conversations`,
    { from: from30(), to: today() },
  );
  const all = await tableOf(page, "conversations");
  expect(all.slice(1)).toEqual(want.series.map((d) => [d.day, String(d.started), String(d.closed)]));
  const todayAll = all.find((r) => r[0] === today())!;
  expect(Number(todayAll[1])).toBeGreaterThanOrEqual(6);

  // The operator filter: only the conversations assigned to them.
  await page.getByLabel("Operator", { exact: true }).selectOption(adminId);
  const mine = await api.get<{ series: { day: string; started: number; closed: number }[] }>(
    `/api/apps/${api.appId}/reports/conversations`,
    { from: from30(), to: today(), operator: adminId },
  );
  await expect
    .poll(async () => (await tableOf(page, "conversations")).slice(1))
    .toEqual(mine.series.map((d) => [d.day, String(d.started), String(d.closed)]));
  expect(mine.series.at(-1)!.started).toBeLessThan(Number(todayAll[1]));

  // A shorter preset: fewer rows.
  await page.getByLabel("Range", { exact: true }).selectOption("7d");
  await expect.poll(async () => (await tableOf(page, "conversations")).length).toBe(8);

  // CSV equals the table, for each card.
  for (const card of CARDS) {
    const table = await tableOf(page, card);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId(`report-${card}`).getByRole("button", { name: "Download CSV" }).click(),
    ]);
    const csv = fs.readFileSync(await download.path(), "utf8");
    const rows = csv
      .trimEnd()
      .split("\r\n")
      .map((l) => l.split(","));
    expect(rows, card).toEqual(table);
  }
});

test("each card leads with its figure for the range and its change; a 20-second time reads in seconds", async ({
  page,
  admin,
}) => {
  await logIn(page, admin);
  await page.goto("/reports");
  await page.getByLabel("Range", { exact: true }).selectOption("7d");
  const conversations = page.getByTestId("report-conversations");

  // The last 7 days hold everything seeded (today); the 7 before them nothing: no percentage of zero.
  const week = await api.get<{ series: { started: number }[] }>(
    `/api/apps/${api.appId}/reports/conversations`,
    {
      from: dayOff(-6),
      to: today(),
    },
  );
  const started = week.series.reduce((n, d) => n + d.started, 0);
  expect(started).toBeGreaterThanOrEqual(7);
  await expect(conversations.getByTestId("report-conversations-figure")).toHaveText(
    `${started} conversations started`,
  );
  await expect(conversations.getByTestId("report-conversations-change")).toHaveText("no previous data");

  // Tomorrow alone: nothing yet, against today's conversations, the previous day: down by all of them.
  await page.getByLabel("Range", { exact: true }).selectOption("custom");
  await page.getByLabel("To", { exact: true }).fill(dayOff(1));
  await page.getByLabel("From", { exact: true }).fill(dayOff(1));
  await expect(conversations.getByTestId("report-conversations-figure")).toHaveText(
    "0 conversations started",
  );
  const change = conversations.getByTestId("report-conversations-change");
  await expect(change).toHaveText("▼ −100%down 100% vs the previous day");
  // The arrow and sign are shown; screen readers get the words.
  await expect(change.locator("[aria-hidden=true]")).toHaveText("▼ −100%");
  await expect(change.locator(".sr-only")).toHaveText("down 100%");

  // The slow operator's one first response: 20 seconds, in seconds, on the card, the axis and the table.
  await page.getByLabel("Range", { exact: true }).selectOption("7d");
  await page.getByLabel("Operator", { exact: true }).selectOption(slowId);
  const mine = await api.get<{
    summary: { first_response: { count: number; median: number; average: number } };
  }>(`/api/apps/${api.appId}/reports/response_times`, { from: dayOff(-6), to: today(), operator: slowId });
  const fr = mine.summary.first_response;
  expect(fr.count).toBe(1);
  expect(fr.median).toBeGreaterThanOrEqual(20);
  expect(fr.median).toBeLessThan(30);
  const card = page.getByTestId("report-first-response");
  const figures = card.getByTestId("report-first-response-figure");
  await expect(figures).toHaveText([
    `${formatDuration(fr.median)} median first response`,
    `${formatDuration(fr.average)} average first response`,
  ]);
  await expect(figures.first()).toHaveText(/^2\d s median first response$/);
  await expect(card.getByTestId("report-first-response-change").first()).toHaveText("no previous data");
  await expect(card.locator("svg[role=img]")).toContainText("Time (seconds)");
  await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
  const table = await tableOf(page, "first-response");
  expect(table[0]).toEqual(["Day", "Answered", "Median", "90th percentile"]);
  expect(table.find((r) => r[0] === today())!.slice(1, 3)).toEqual(["1", formatDuration(fr.median)]);
});
