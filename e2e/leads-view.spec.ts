import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import {
  apiFor,
  expectRows,
  leadsUrl,
  logIn,
  openLeads,
  rowIds,
  runId,
  type Api,
  type Leads,
} from "./support/leads";

const TIERS = ["gold", "silver", "bronze"];
const run = runId("view");
const byRun = { property_name: "run", type: "str_eq", value: { value: run } };
const tier = (t: string) => ({ property_name: "tier", type: "str_eq", value: { value: t } });
const scoreAtLeast = (n: number) => ({ property_name: "score", type: "gte", value: { value: n } });
const SORTED = { sort: "score", order: "asc" };
// Many steps, each waiting on the server: a loaded machine needs more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

let api: Api;

const list = (filters: unknown, params: Record<string, unknown> = {}) =>
  api.get<Leads>(`/api/apps/${api.appId}/users`, {
    filters,
    sort_prop: "score",
    sort_order: "asc",
    ...params,
  });

/** The filter the view holds in its URL. */
function urlFilter(page: Page): unknown {
  const raw = new URL(page.url()).searchParams.get("filters");
  return raw ? JSON.parse(raw) : null;
}

test.beforeAll(async ({ playwright, e2e }) => {
  const request = await playwright.request.newContext({ baseURL: e2e.baseURL });
  api = await apiFor(request, e2e.admin);
  const lines = ["$email,$name,run,tier,score"];
  for (let i = 0; i < 60; i++) lines.push(`v${i}@${run}.test,View ${i},${run},${TIERS[i % 3]},${i}`);
  const job = await api.importCsv(lines.join("\n") + "\n");
  expect(job.rows_imported).toBe(60);
});

test.beforeEach(async ({ page, admin }) => {
  await logIn(page, admin);
});

test("removing and reordering conditions and groups: rows and total follow the API", async ({ page }) => {
  const three = { type: "and", filters: [byRun, tier("gold"), scoreAtLeast(30)] };
  await openLeads(page, leadsUrl(three, SORTED));
  await expectRows(page, await list(three));

  await page.getByRole("button", { name: "Move condition 3 up", exact: true }).click();
  await expect(page.getByLabel("Property of condition 2", { exact: true })).toHaveValue("score");
  await expect(page.getByLabel("Property of condition 3", { exact: true })).toHaveValue("tier");
  const reordered = { type: "and", filters: [byRun, scoreAtLeast(30), tier("gold")] };
  await expect.poll(() => urlFilter(page)).toEqual(reordered);
  await expectRows(page, await list(reordered));

  await page.getByRole("button", { name: "Remove condition 3", exact: true }).click();
  await expect(page.getByLabel("Property of condition 3", { exact: true })).toHaveCount(0);
  const two = { type: "and", filters: [byRun, scoreAtLeast(30)] };
  await expect.poll(() => urlFilter(page)).toEqual(two);
  const twoRows = await list(two);
  expect(twoRows.total).toBe(30);
  await expectRows(page, twoRows);

  // A nested or-group moves and goes as one.
  const grouped = {
    type: "and",
    filters: [byRun, { type: "or", filters: [tier("gold"), tier("silver")] }, scoreAtLeast(45)],
  };
  await openLeads(page, leadsUrl(grouped, SORTED));
  await expectRows(page, await list(grouped));
  await page.getByRole("button", { name: "Move group 2 down", exact: true }).click();
  await expect(page.getByLabel("Property of condition 2", { exact: true })).toHaveValue("score");
  await expect(page.getByLabel("Value of condition 3.2", { exact: true })).toHaveValue("silver");
  await expect
    .poll(() => urlFilter(page))
    .toEqual({ type: "and", filters: [byRun, scoreAtLeast(45), grouped.filters[1]] });
  await page.getByRole("button", { name: "Remove condition 3.1", exact: true }).click();
  const silverOnly = {
    type: "and",
    filters: [byRun, scoreAtLeast(45), { type: "or", filters: [tier("silver")] }],
  };
  await expect.poll(() => urlFilter(page)).toEqual(silverOnly);
  await expectRows(page, await list(silverOnly));
  await page.getByRole("button", { name: "Remove group 3", exact: true }).click();
  const noGroup = { type: "and", filters: [byRun, scoreAtLeast(45)] };
  await expect.poll(() => urlFilter(page)).toEqual(noGroup);
  const last = await list(noGroup);
  expect(last.total).toBe(15);
  await expectRows(page, last);
});

test("pages of 20 or 50", async ({ page }) => {
  const only = { type: "and", filters: [byRun] };
  await openLeads(page, leadsUrl(only, SORTED));
  await expectRows(page, await list(only, { limit: 20 }));
  await expect(page.getByText("Page 1 of 3")).toBeVisible();

  await page.getByLabel("Per page").selectOption("50");
  await expect(page).toHaveURL(/size=50/);
  await expectRows(page, await list(only, { limit: 50 }));
  await expect(page.getByTestId("leads-range")).toHaveText("1–50 of 60 leads");
  await page.getByRole("button", { name: "Next page" }).click();
  await expectRows(page, await list(only, { limit: 50, offset: 50 }));
  await expect(page.getByTestId("leads-range")).toHaveText("51–60 of 60 leads");
  await expect(page.getByRole("button", { name: "Next page" })).toBeDisabled();

  await page.reload();
  await expect(page.getByLabel("Per page")).toHaveValue("50");
  await expectRows(page, await list(only, { limit: 50, offset: 50 }));

  // Back to 20: the first page again, not a page past the end.
  await page.getByLabel("Per page").selectOption("20");
  await expect(page).not.toHaveURL(/size=/);
  await expectRows(page, await list(only, { limit: 20 }));
  await expect(page.getByText("Page 1 of 3")).toBeVisible();
});

test("a segment is renamed, updated with the current filter and deleted", async ({ page }) => {
  const gold = { type: "and", filters: [byRun, tier("gold")] };
  const name = `Seg ${run}`;
  const segments = () =>
    api.get<{ id: string | number; name: string; filters: unknown }[]>(`/api/apps/${api.appId}/segments`);
  const saved = page.getByRole("list", { name: "Saved segments" });
  await openLeads(page, leadsUrl(gold, SORTED));
  await expectRows(page, await list(gold));
  await page.getByLabel("New segment name").fill(name);
  await page.getByRole("button", { name: "Save segment" }).click();
  await expect(saved.getByRole("button", { name, exact: true })).toHaveAttribute("aria-current", "true");

  // Rename.
  const renamed = `Renamed ${run}`;
  await saved.getByRole("button", { name: `Rename ${name}`, exact: true }).click();
  await page.getByLabel(`New name for ${name}`).fill(renamed);
  await page.getByLabel(`New name for ${name}`).press("Enter");
  await expect(saved.getByRole("button", { name: renamed, exact: true })).toBeVisible();
  await expect(saved.getByRole("button", { name, exact: true })).toHaveCount(0);
  await expect.poll(async () => (await segments()).filter((s) => s.name === renamed).length).toBe(1);
  await page.reload();
  await expect(saved.getByRole("button", { name: renamed, exact: true })).toBeVisible();

  // Update: change the filter, then save it over the segment.
  const silver = { type: "and", filters: [byRun, tier("silver")] };
  await page.getByLabel("Value of condition 2", { exact: true }).fill("silver");
  await expect.poll(() => urlFilter(page)).toEqual(silver);
  await expectRows(page, await list(silver));
  await saved.getByRole("button", { name: `Update ${renamed} with the current filter` }).click();
  await expect.poll(async () => (await segments()).find((s) => s.name === renamed)?.filters).toEqual(silver);
  await openLeads(page);
  await saved.getByRole("button", { name: renamed, exact: true }).click();
  await expect(page.getByLabel("Value of condition 2", { exact: true })).toHaveValue("silver");
  const silverDefault = await api.get<Leads>(`/api/apps/${api.appId}/users`, { filters: silver });
  await expectRows(page, silverDefault);

  // Delete, after the confirmation.
  page.once("dialog", (d) => void d.accept());
  await saved.getByRole("button", { name: `Delete ${renamed}`, exact: true }).click();
  await expect(saved.getByRole("button", { name: renamed, exact: true })).toHaveCount(0);
  await expect.poll(async () => (await segments()).some((s) => s.name === renamed)).toBe(false);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Leads" })).toBeVisible();
  await expect(saved.getByRole("button", { name: renamed, exact: true })).toHaveCount(0);
});

/** Only the leads list itself (not export, import or the prop catalog). */
const listUrl = (appId: string) => (url: URL) => url.pathname === `/api/apps/${appId}/users`;

test("loading, empty and error states; retry after an error", async ({ page }) => {
  const only = { type: "and", filters: [byRun] };
  // Loading: the list's answer is held until the loading state has been seen.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(listUrl(api.appId), async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/leads${leadsUrl(only, SORTED)}`);
  await expect(page.getByText("Loading leads…")).toBeVisible();
  release();
  await expectRows(page, await list(only, { limit: 20 }));
  await expect(page.getByText("Loading leads…")).toHaveCount(0);
  await page.unroute(listUrl(api.appId));

  // Empty: a filter nobody matches says so, and how to see more.
  const none = {
    type: "and",
    filters: [{ property_name: "run", type: "str_eq", value: { value: `${run}-none` } }],
  };
  await openLeads(page, leadsUrl(none));
  await expect(page.getByText("No leads match")).toBeVisible();
  await expect(page.getByText("Loosen or remove a condition to see more people.")).toBeVisible();
  await expect(page.getByTestId("leads-total")).toHaveText("0");
  await expect(page.locator("tbody tr")).toHaveCount(0);

  // Error: the server fails; the page says so and offers a retry that works once the server is back.
  let failing = true;
  await page.route(listUrl(api.appId), async (route) => {
    if (!failing) return route.continue();
    await route.fulfill({
      status: 500,
      contentType: "application/json",
      body: JSON.stringify({
        data: null,
        meta: { status: 500, error: "InternalError", error_message: "The database is unreachable." },
      }),
    });
  });
  await page.goto(`/leads${leadsUrl(only, SORTED)}`);
  await expect(page.getByRole("alert").filter({ hasText: "Could not load leads" })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByRole("alert").filter({ hasText: "The database is unreachable." })).toBeVisible();
  expect(await rowIds(page)).toEqual([]);
  failing = false;
  await page.getByRole("button", { name: "Try again" }).click();
  await expectRows(page, await list(only, { limit: 20 }));
  await expect(page.getByRole("alert").filter({ hasText: "Could not load leads" })).toHaveCount(0);
});

test("the export's cap is stated when more leads match than it holds", async ({ page }) => {
  const only = { type: "and", filters: [byRun] };
  await openLeads(page, leadsUrl(only, SORTED));
  await expectRows(page, await list(only, { limit: 20 }));
  const note = page.getByRole("note").filter({ hasText: "The export holds" });
  await expect(note).toHaveCount(0);

  // 100,001 matching leads are too many to create here: the list's answer says so instead.
  await page.route(listUrl(api.appId), async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { data: Leads };
    body.data.total = 100_001;
    await route.fulfill({ response: res, json: body });
  });
  await page.reload();
  await expect(page.getByTestId("leads-total")).toHaveText("100,001");
  await expect(note).toContainText("The export holds the first 100,000 of these leads");
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAccessibleDescription(/first 100,000/);
});

test("chosen columns are remembered per app", async ({ page }) => {
  const only = { type: "and", filters: [byRun] };
  // Another app's choice, remembered in this browser, is not this app's.
  await page.addInitScript(
    (key) => window.localStorage.setItem(key, JSON.stringify(["score"])),
    `relay.leads.columns.${api.appId}9`,
  );
  await openLeads(page, leadsUrl(only, SORTED));
  await expectRows(page, await list(only, { limit: 20 }));
  await expect(page.getByRole("columnheader", { name: /score/i })).toHaveCount(0);

  await page.getByText("Columns", { exact: true }).click();
  await page.getByRole("option", { name: "tier", exact: true }).click();
  await expect(page.getByRole("columnheader", { name: /tier/i })).toBeVisible();
  expect(
    await page.evaluate((id) => window.localStorage.getItem(`relay.leads.columns.${id}`), api.appId),
  ).toBe(JSON.stringify(["tier"]));

  await page.reload();
  await expect(page.getByRole("columnheader", { name: /tier/i })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: /score/i })).toHaveCount(0);
  const first = (await list(only, { limit: 1 })).users[0]!.id;
  const header = page.getByRole("columnheader", { name: /tier/i });
  const col = await header.evaluate((th) => Array.from(th.parentElement!.children).indexOf(th));
  await expect(page.locator(`tr[data-lead-id="${first}"] td`).nth(col)).toHaveText("gold");
});
