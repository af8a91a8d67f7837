import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { apiFor, logIn, openLeads, rowIds, runId, type Api } from "./support/leads";

// A newcomer's walk through the Leads (the Inbox's: polish.spec.ts): each test failed on the panel before its fix.
test.describe.configure({ timeout: 90_000 });

let api: Api;
const run = runId("polish");

test.beforeAll(async ({ playwright, e2e }) => {
  const request = await playwright.request.newContext({ baseURL: e2e.baseURL });
  api = await apiFor(request, e2e.admin);
  const lines = ["$email,$name,run,score"];
  for (let i = 0; i < 25; i++) {
    lines.push(`p${i}@${run}.test,${String.fromCharCode(65 + i)}ada ${run},${run},${i}`);
  }
  const job = await api.importCsv(lines.join("\n") + "\n");
  expect(job.rows_imported).toBe(25);
});

const byRun = { type: "and", filters: [{ property_name: "run", type: "str_eq", value: { value: run } }] };
const runQuery = (extra: Record<string, string> = {}) =>
  `?${new URLSearchParams({ filters: JSON.stringify(byRun), ...extra })}`;

const header = (page: Page, name: string) => page.getByRole("columnheader", { name });

test.describe("leads", () => {
  test.beforeEach(async ({ page, admin }) => {
    await logIn(page, admin);
  });

  test("no leads reads 0 leads; the builder and the card name system props as the table does", async ({
    page,
  }) => {
    const none = {
      type: "and",
      filters: [{ property_name: "run", type: "str_eq", value: { value: `${run}-x` } }],
    };
    await openLeads(page, `?${new URLSearchParams({ filters: JSON.stringify(none) })}`);
    await expect(page.getByTestId("leads-range")).toHaveText("0 leads");

    const sessions = {
      type: "and",
      filters: [{ property_name: "$sessions", type: "gte", value: { value: 0 } }],
    };
    await openLeads(page, `?${new URLSearchParams({ filters: JSON.stringify(sessions) })}`);
    const picker = page.getByLabel("Property of condition 1", { exact: true });
    await expect(picker).toHaveValue("Sessions");
    await picker.click();
    await expect(page.getByRole("option", { name: /^Name\b/ })).toBeVisible();
    // System props by their words; events keep the names they were tracked with (the messenger's `$page_view`).
    const system = page.getByRole("group", { name: "System" });
    await expect(system.getByRole("option").first()).toBeVisible();
    await expect(system.getByRole("option", { name: /\$/ })).toHaveCount(0);
    await picker.press("Escape");

    // The rows load after the heading: read them once the run's 25 are counted (an empty read opened /users/undefined).
    await openLeads(page, runQuery());
    await expect(page.getByTestId("leads-total")).toHaveText("25");
    const first = (await rowIds(page))[0]!;
    expect(first).toMatch(/^\d+$/);
    await page.goto(`/leads/users/${first}`);
    const props = page.locator("section", { has: page.locator("#sys-props") });
    await expect(props.locator("dt").first()).toBeVisible();
    await expect(props.locator("dt", { hasText: "$" })).toHaveCount(0);
    await expect(props.locator("dt", { hasText: /^Name$/ })).toHaveCount(1);
  });

  test("with 300+ custom props, the property and Columns pickers are searched and worked by keyboard", async ({
    page,
  }) => {
    // 320 custom props on two new users (a call takes at most 250 operations); the catalog samples them.
    const key = (i: number) => `pk${run}_${i}`;
    const ids: string[] = [];
    for (let u = 0; u < 2; u++) {
      const props = Object.fromEntries(Array.from({ length: 160 }, (_, i) => [key(u * 160 + i), i]));
      ids.push(await api.upsert(`picker-${u}-${run}`, props));
    }
    await openLeads(page);
    await page.getByRole("button", { name: "Add condition", exact: true }).click();
    const picker = page.getByRole("combobox", { name: "Property of condition 1", exact: true });
    const options = page.getByRole("listbox", { name: "Properties" }).getByRole("option");
    await picker.click();
    await expect(page.getByText(/^100 of \d+ shown: type to narrow\.$/)).toBeVisible();
    await picker.fill("");
    await picker.pressSequentially(`${run}_203`);
    await expect(options).toHaveCount(1);
    await picker.press("ArrowDown");
    await expect(options.filter({ hasText: key(203) })).toHaveAttribute("aria-selected", "true");
    await picker.press("Enter");
    await expect(picker).toHaveValue(key(203));
    await expect(options).toHaveCount(0);
    await page.getByLabel("Operator of condition 1", { exact: true }).selectOption("gte");
    await page.getByLabel("Value of condition 1", { exact: true }).fill("0");
    await expect(page.getByTestId("leads-total")).toHaveText("1");
    await expect.poll(() => rowIds(page)).toEqual([ids[1]]);
    // Escape on the closed picker neither clears nor changes the property.
    await picker.press("Escape");
    await expect(picker).toHaveValue(key(203));

    // Columns: open from the keyboard, search, toggle with Enter (the list stays open), Escape back to the button.
    const columns = page.getByRole("button", { name: /^Columns/ });
    await columns.focus();
    await columns.press("Enter");
    const search = page.getByRole("combobox", { name: "Search columns", exact: true });
    await expect(search).toBeFocused();
    const columnOptions = page.getByRole("listbox", { name: "Columns" }).getByRole("option");
    await search.pressSequentially(`${run}_317`);
    await expect(columnOptions).toHaveCount(1);
    await search.press("ArrowDown");
    await search.press("Enter");
    await expect(columnOptions.filter({ hasText: key(317) })).toHaveAttribute("aria-selected", "true");
    await expect(header(page, key(317))).toBeVisible();
    await search.press("Escape");
    await expect(columns).toBeFocused();
    await expect(columns).toHaveText("Columns (+1)");
    await expect(search).toBeHidden();
  });

  test("at 1280 px the table shows every column, and Segments and Import are a click away", async ({
    page,
  }) => {
    await openLeads(page, runQuery());
    await expect(page.getByTestId("leads-total")).toHaveText("25");
    const table = page.getByRole("table", { name: "Leads" });
    const scrolls = await table.evaluate((t) => {
      const box = t.parentElement!;
      return box.scrollWidth > box.clientWidth;
    });
    expect(scrolls).toBe(false);
    for (const name of ["Sessions", "City, country", "Tags"])
      await expect(header(page, name)).toBeInViewport();
    await page.getByRole("link", { name: "Import CSV" }).click();
    await expect(page.getByRole("heading", { name: /Import/ }).first()).toBeInViewport();
    await page.getByRole("link", { name: "Segments", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Segments" })).toBeInViewport();
  });

  test("the first click on Name sorts A→Z", async ({ page }) => {
    await openLeads(page, runQuery());
    await expect(page.getByTestId("leads-total")).toHaveText("25");
    await header(page, "Name").getByRole("button").click();
    await expect(header(page, "Name")).toHaveAttribute("aria-sort", "ascending");
    await expect(page.locator("tbody tr").first()).toContainText(`Aada ${run}`);
  });

  test("a second sort click before the first round trip returns is kept, and shown at once", async ({
    page,
  }) => {
    await openLeads(page, runQuery());
    await expect(page.getByTestId("leads-total")).toHaveText("25");
    // A slow server: no page of leads is answered until both clicks are made.
    let answer!: () => void;
    const bothClicked = new Promise<void>((r) => (answer = r));
    await page.route(/\/api\/apps\/[^/]+\/users\?/, async (route) => {
      await bothClicked;
      await route.continue();
    });
    await header(page, "Name").getByRole("button").click();
    await expect(header(page, "Name")).toHaveAttribute("aria-sort", "ascending", { timeout: 500 });
    await expect(page.getByRole("table", { name: "Leads" })).toHaveAttribute("aria-busy", "true");
    await header(page, "Name").getByRole("button").click();
    await expect(header(page, "Name")).toHaveAttribute("aria-sort", "descending", { timeout: 500 });
    answer();
    await expect(page.getByRole("table", { name: "Leads" })).not.toHaveAttribute("aria-busy", "true", {
      timeout: 10_000,
    });
    await expect(page.locator("tbody tr").first()).toContainText(`Yada ${run}`);
    expect(new URL(page.url()).searchParams.get("sort")).toBe("$name");
    expect(new URL(page.url()).searchParams.get("order")).toBeNull();
  });

  test("← All leads on the card goes back to the list's filter, sort and page", async ({ page }) => {
    const query = runQuery({ sort: "score", order: "asc", page: "2" });
    await openLeads(page, query);
    await expect(page.getByTestId("leads-range")).toContainText("21–25 of");
    const first = (await rowIds(page))[0]!;
    await page.locator(`tr[data-lead-id="${first}"] a`).click();
    await expect(page).toHaveURL(new RegExp(`/leads/users/${first}$`));
    await page.getByRole("link", { name: "← All leads" }).click();
    await expect(page).toHaveURL(/\/leads\?/);
    const sp = new URL(page.url()).searchParams;
    expect(sp.get("sort")).toBe("score");
    expect(sp.get("order")).toBe("asc");
    expect(sp.get("page")).toBe("2");
    expect(JSON.parse(sp.get("filters") ?? "null")).toEqual(byRun);
    await expect(page.getByTestId("leads-range")).toContainText("21–25 of");
  });
});
