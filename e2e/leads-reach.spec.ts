import { expect, test } from "./support/fixtures";
import { apiFor, expectRows, leadsUrl, logIn, openLeads, runId, type Leads } from "./support/leads";

test("more than 10,000 matching leads: the total is exact and the paging limit is explained", async ({
  page,
  request,
  admin,
}) => {
  test.setTimeout(300_000);
  const api = await apiFor(request, admin);
  const run = runId("reach");
  const lines = ["$email,$name,batch,rank"];
  for (let i = 0; i < 10_001; i++) lines.push(`r${i}@${run}.test,Reach ${i},${run},${i}`);
  const job = await api.importCsv(lines.join("\n") + "\n");
  expect(job.rows_imported).toBe(10_001);

  const filters = {
    type: "and",
    filters: [{ property_name: "batch", type: "str_eq", value: { value: run } }],
  };
  const list = (params: Record<string, unknown> = {}) =>
    api.get<Leads>(`/api/apps/${api.appId}/users`, {
      filters,
      sort_prop: "rank",
      sort_order: "asc",
      ...params,
    });

  await logIn(page, admin);
  await openLeads(page, leadsUrl(filters, { sort: "rank", order: "asc" }));
  await expectRows(page, await list({ limit: 20 }));
  await expect(page.getByTestId("leads-total")).toHaveText("10,001");
  const note = page.getByRole("note").filter({ hasText: "can be paged through" });
  await expect(note).toContainText("10,001 leads match, but only the first 10,000 can be paged through");
  await expect(page.getByText("Page 1 of 500")).toBeVisible();

  // The last reachable page: leads 9,981 to 10,000, and no further.
  await openLeads(page, leadsUrl(filters, { sort: "rank", order: "asc", page: "500" }));
  await expectRows(page, await list({ limit: 20, offset: 9_980 }));
  await expect(page.getByTestId("leads-range")).toHaveText("9,981–10,000 of 10,001 leads");
  await expect(page.getByRole("button", { name: "Next page" })).toBeDisabled();
  await expect(note).toBeVisible();

  // A narrower filter brings the others within reach, and the note goes.
  const narrower = {
    type: "and",
    filters: [...filters.filters, { property_name: "rank", type: "gte", value: { value: 10_000 } }],
  };
  await openLeads(page, leadsUrl(narrower, { sort: "rank", order: "asc" }));
  await expect(page.getByTestId("leads-total")).toHaveText("1");
  await expect(page.locator("tbody tr[data-lead-id]")).toHaveText(/Reach 10000/);
  await expect(note).toHaveCount(0);
});
