import fs from "node:fs";
import { EXPORT_REPORTS } from "../lib/reports-export/export-csv";
import { expect, test } from "./support/fixtures";
import { apiFor, logIn, runId, type Api } from "./support/leads";

// Reports → the breakdown by channel and tag, the app's time zone set in Settings, the export of every report.
test.describe.configure({ timeout: 180_000 });

const run = runId("more");
let api: Api;
let channel: { id: number | string; name: string };
let zoneBefore: string;

test.beforeAll(async ({ playwright, e2e }) => {
  const request = await playwright.request.newContext({ baseURL: e2e.baseURL });
  api = await apiFor(request, e2e.admin);
  zoneBefore = (await api.get<{ time_zone: string }>(`/api/apps/${api.appId}/settings`)).time_zone;
  const channels = await api.get<{ id: number | string; name: string }[]>(`/api/apps/${api.appId}/channels`);
  expect(channels.length).toBeGreaterThan(0);
  channel = channels[0]!;
  // Seeded through the API: every part is stamped now, inside the page's default range (the last 30 days).
  for (let i = 0; i < 2; i++) {
    const user = await api.upsert(`${run}-${i}`, {});
    const c = await api.post<{ id: number | string }>(`/api/users/${user}/startconversation`, {
      body: `Question ${i}`,
      channel: channel.id,
    });
    await api.post(`/api/conversations/${c.id}/tag`, { tag: `${run}-tag` });
    await api.post(`/api/conversations/${c.id}/reply`, { body: `Answer ${i}` });
    await api.post(`/api/conversations/${c.id}/close`, {});
  }
});

test.afterAll(async () => {
  await api.post(`/api/apps/${api.appId}/settings`, { time_zone: zoneBefore });
});

test("the breakdown card splits the range by channel, then by tag", async ({ page, admin }) => {
  await logIn(page, admin);
  await page.goto("/reports");
  const card = page.getByTestId("report-breakdown");
  await expect(card.getByRole("heading", { name: "By channel" })).toBeVisible();
  await expect(card.locator("svg[role=img]")).toBeVisible();
  await card.getByRole("button", { name: "Table", exact: true }).click();
  const table = page.getByTestId("report-breakdown-table");
  await expect(table.getByRole("columnheader", { name: "Channel" })).toBeVisible();
  await expect(table.getByRole("row").filter({ hasText: channel.name })).toBeVisible();
  // From the keyboard: the split's buttons are buttons.
  const byTag = card.getByRole("button", { name: "Tag", exact: true });
  await byTag.focus();
  await page.keyboard.press("Enter");
  await expect(byTag).toHaveAttribute("aria-pressed", "true");
  await expect(table.getByRole("columnheader", { name: "Tag" })).toBeVisible();
  const row = table.getByRole("row").filter({ hasText: `${run}-tag` });
  // Started and closed: the two seeded conversations carry the tag.
  await expect(row.getByRole("cell")).toHaveText([`${run}-tag`, "2", "2", /^\d+$/, /.*/]);
});

test("the time zone set in Settings is the one Reports say they are in", async ({ page, admin }) => {
  await logIn(page, admin);
  const zone = zoneBefore === "Asia/Tokyo" ? "America/Lima" : "Asia/Tokyo";
  await page.goto("/settings#office-hours");
  const input = page.getByTestId("time-zone-input");
  await expect(input).toHaveValue(zoneBefore);
  await input.fill("Not/AZone");
  await expect(page.getByText("Choose a zone from the list")).toBeVisible();
  await input.fill(zone);
  await input.press("Enter");
  await expect(page.getByText("Saved.")).toBeVisible();
  await expect(page.getByTestId("office-hours-zone")).toHaveText(zone);
  await page.goto("/reports");
  await expect(page.getByTestId("reports-time-zone")).toHaveText(zone);
  await api.post(`/api/apps/${api.appId}/settings`, { time_zone: zoneBefore });
});

test("one download holds every report of the range", async ({ page, admin }) => {
  await logIn(page, admin);
  await page.goto("/reports");
  await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("reports-export").click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^reports-\d+-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv$/);
  const lines = fs
    .readFileSync(await download.path(), "utf8")
    .trimEnd()
    .split("\r\n");
  expect(lines[0]).toMatch(/^report,day,weekday,hour,key,name,/);
  expect(lines[0]).toContain("first_response_median_seconds");
  const reports = new Set(lines.slice(1).map((l) => l.split(",")[0]));
  // The CSAT comments and per-operator ratings have rows only when visitors rated: none are seeded here.
  for (const r of EXPORT_REPORTS.filter((x) => x !== "csat_comments" && x !== "csat_operators"))
    expect(reports, r).toContain(r);
  expect(lines.some((l) => l.startsWith(`breakdown_tag,,,,${run}-tag,${run}-tag,2,2,`))).toBe(true);
});
