import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, logInThroughForm, test, type Admin } from "./support/fixtures";
import { apiFor, expectRows, openLeads as showLeads, pickProperty, type Leads } from "./support/leads";

// Screenshots for the docs are taken only when asked (E2E_SCREENSHOTS=docs/screenshots), never by the suite itself.
const SHOTS = process.env.E2E_SCREENSHOTS;

async function openLeads(page: Page, op: Admin, query = "") {
  await logInThroughForm(page, op);
  await expect(page).toHaveURL(/\/inbox/);
  await showLeads(page, query);
}

test.describe("leads", () => {
  test("filter with an or-group, sort, page, reload, segment, edit a prop on the card", async ({
    page,
    request,
    admin,
  }) => {
    test.setTimeout(120_000);
    const api = await apiFor(request, admin);
    const run = `r${Date.now()}`;
    const tiers = ["gold", "silver", "bronze"];
    for (let i = 0; i < 60; i++) {
      await api.post(`/api/users/${run}-${i}/props`, {
        by_user_id: true,
        app: api.appId,
        operations: [
          { op: "update_or_create", key: "$name", value: `Lead ${String(i).padStart(2, "0")} ${run}` },
          { op: "update_or_create", key: "$email", value: `l${i}@${run}.test` },
          { op: "update_or_create", key: "$sessions", value: (i * 5) % 7 },
          { op: "update_or_create", key: "run", value: run },
          { op: "update_or_create", key: "tier", value: tiers[i % 3] },
          { op: "update_or_create", key: "score", value: i },
        ],
      });
    }
    const filters = {
      type: "and",
      filters: [
        { property_name: "run", type: "str_eq", value: { value: run } },
        { property_name: "$sessions", type: "gte", value: { value: 2 } },
        {
          type: "or",
          filters: [
            { property_name: "tier", type: "str_eq", value: { value: "gold" } },
            { property_name: "score", type: "gte", value: { value: 30 } },
          ],
        },
      ],
    };
    const list = (params: Record<string, unknown> = {}) =>
      api.get<Leads>(`/api/apps/${api.appId}/users`, { filters, ...params });

    await openLeads(page, admin);
    // Two conditions and an or-group, built in the UI.
    await page.getByRole("button", { name: "Add condition", exact: true }).click();
    await pickProperty(page, "condition 1", "run");
    await page.getByLabel("Operator of condition 1", { exact: true }).selectOption("str_eq");
    await page.getByLabel("Value of condition 1", { exact: true }).fill(run);
    await page.getByRole("button", { name: "Add condition", exact: true }).click();
    await pickProperty(page, "condition 2", "Sessions");
    await page.getByLabel("Operator of condition 2", { exact: true }).selectOption("gte");
    await page.getByLabel("Value of condition 2", { exact: true }).fill("2");
    await page.getByRole("button", { name: "Add group", exact: true }).click();
    await pickProperty(page, "condition 3.1", "tier");
    await page.getByLabel("Operator of condition 3.1", { exact: true }).selectOption("str_eq");
    await page.getByLabel("Value of condition 3.1", { exact: true }).fill("gold");
    await page.getByRole("button", { name: "Add condition to group 3" }).click();
    await pickProperty(page, "condition 3.2", "score");
    await page.getByLabel("Operator of condition 3.2", { exact: true }).selectOption("gte");
    await page.getByLabel("Value of condition 3.2", { exact: true }).fill("30");

    const first = await list();
    expect(first.total).toBeGreaterThan(20);
    await expectRows(page, first);
    if (SHOTS) fs.mkdirSync(SHOTS, { recursive: true });
    await page.getByTestId("leads-range").evaluate((el) => el.scrollIntoView({ block: "start" }));
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "leads-table.png") });

    // Sorting by a column header, both ways.
    const sessions = page.getByRole("columnheader", { name: /Sessions/ });
    await sessions.getByRole("button").click();
    await expect(sessions).toHaveAttribute("aria-sort", "descending");
    await expectRows(page, await list({ sort_prop: "$sessions", sort_order: "desc" }));
    await sessions.getByRole("button").click();
    await expect(sessions).toHaveAttribute("aria-sort", "ascending");
    const asc = await list({ sort_prop: "$sessions", sort_order: "asc" });
    await expectRows(page, asc);

    // Paging.
    await page.getByRole("button", { name: "Next page" }).click();
    await expect(page).toHaveURL(/page=2/);
    const second = await list({ sort_prop: "$sessions", sort_order: "asc", offset: 20 });
    await expectRows(page, second);

    // Reloading the URL restores the view.
    await page.reload();
    await expectRows(page, second);
    await expect(page.getByRole("columnheader", { name: /Sessions/ })).toHaveAttribute(
      "aria-sort",
      "ascending",
    );
    await expect(page.getByLabel("Value of condition 3.2", { exact: true })).toHaveValue("30");

    // Save a segment, reopen it from the list: the same leads.
    const segName = `Seg ${run}`;
    await page.getByLabel("New segment name").fill(segName);
    await page.getByRole("button", { name: "Save segment" }).click();
    const saved = page
      .getByRole("list", { name: "Saved segments" })
      .getByRole("button", { name: segName, exact: true });
    await expect(saved).toBeVisible();
    await page.goto("/leads");
    await expect(page.getByLabel("Property of condition 1", { exact: true })).toHaveCount(0);
    await page
      .getByRole("list", { name: "Saved segments" })
      .getByRole("button", { name: segName, exact: true })
      .click();
    await expectRows(page, first);

    // Edit a custom prop on the card; it persists and shows in the table's column.
    const target = first.users[0]!.id;
    await page.locator(`tr[data-lead-id="${target}"]`).getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/leads/users/${target}$`));
    await page.getByRole("button", { name: "Edit tier" }).click();
    await page.getByLabel("Value of tier").fill("platinum");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.locator('[data-prop="tier"]')).toContainText("platinum");
    await page.reload();
    await expect(page.locator('[data-prop="tier"]')).toContainText("platinum");
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "lead-card.png") });
    const card = await api.get<{ props_custom: Record<string, unknown> }>(`/api/users/${target}`, {
      props_custom: true,
    });
    expect(card.props_custom.tier).toBe("platinum");

    const only = { type: "and", filters: [filters.filters[0]] };
    await page.goto(`/leads?filters=${encodeURIComponent(JSON.stringify(only))}&sort=score&size=50`);
    await page.getByText("Columns", { exact: true }).click();
    const tierBox = page.getByRole("option", { name: "tier", exact: true });
    if ((await tierBox.getAttribute("aria-selected")) !== "true") await tierBox.click();
    await expect(tierBox).toHaveAttribute("aria-selected", "true");
    const header = page.getByRole("columnheader", { name: /tier/i });
    await expect(header).toBeVisible();
    const col = await header.evaluate((th) => Array.from(th.parentElement!.children).indexOf(th));
    await expect(page.locator(`tr[data-lead-id="${target}"] td`).nth(col)).toHaveText("platinum");
  });

  test("import a 1,000-row CSV: progress reaches 100%, row errors listed, leads found by filter", async ({
    page,
    request,
    admin,
  }) => {
    test.setTimeout(120_000);
    const api = await apiFor(request, admin);
    const run = `imp${Date.now()}`;
    const lines = ["$email,$name,cohort"];
    const bad = new Set([7, 150, 333, 512, 999]);
    for (let i = 0; i < 1000; i++) {
      lines.push(`${bad.has(i) ? `not-an-email-${i}` : `i${i}@${run}.test`},Imported ${i},${run}`);
    }
    await openLeads(page, admin);
    await page.getByLabel(/CSV file/).setInputFiles({
      name: "leads.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(lines.join("\n") + "\n"),
    });
    await page.getByLabel("Tag imported leads").fill(run);
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const bar = page.getByRole("progressbar", { name: "Import progress" });
    await expect(bar).toHaveAttribute("aria-valuenow", "100", { timeout: 60_000 });
    await expect(page.getByTestId("import-status")).toContainText("done");
    await expect(page.getByTestId("import-status")).toContainText("995 imported, 5 failed");
    const errors = page.getByRole("list", { name: "Row errors" }).getByRole("listitem");
    await expect(errors).toHaveCount(5);
    await expect(errors.first()).toContainText("Line 9");

    await page.getByRole("button", { name: `Show leads tagged “${run}”` }).click();
    await expect(page.getByTestId("leads-total")).toHaveText("995");
    const byProp = await api.get<Leads>(`/api/apps/${api.appId}/users`, {
      filters: { type: "and", filters: [{ property_name: "cohort", type: "str_eq", value: { value: run } }] },
      limit: 1,
    });
    expect(byProp.total).toBe(995);
  });
});
