import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
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

const today = () => new Date().toISOString().slice(0, 10);
const from30 = () => new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);

test.beforeAll(async ({ playwright, e2e }) => {
  const request = await playwright.request.newContext({ baseURL: e2e.baseURL });
  api = await apiFor(request, e2e.admin);
  const admins = await api.get<{ id: number | string; email: string }[]>(`/api/apps/${api.appId}/admins`);
  adminId = String(admins.find((a) => a.email === e2e.admin.email)!.id);
  for (let i = 0; i < 6; i++) {
    const user = await api.upsert(`${run}-${i}`, { $email: `r${i}@${run}.test` });
    const c = await api.post<{ id: number | string }>(`/api/users/${user}/startconversation`, {
      body: `Hi ${i}`,
    });
    if (i < 4) await api.post(`/api/conversations/${c.id}/reply`, { body: `Hello ${i}` });
    if (i < 2) await api.post(`/api/conversations/${c.id}/assign`, { admin: adminId });
    if (i % 2 === 0) await api.post(`/api/conversations/${c.id}/close`, {});
  }
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
