import { expect, test } from "./support/fixtures";

/**
 * The reference's guides as a reader meets them: a Guides group at the side above the resources, found by the
 * search box, and the Messenger JS API guide with its install snippet and the server-side hash in four languages.
 * No login: the reference is public.
 */

test("the side navigation lists the guides above the resources and opens one", async ({ page }) => {
  await page.goto("/docs");
  const nav = page.getByRole("navigation", { name: "Resources" });
  const guides = nav.getByRole("list", { name: "Guides" });
  await expect(guides.getByRole("link")).not.toHaveCount(0);
  // Above the resources: the Guides heading comes before the Resources one in the side bar.
  const labels = await nav.locator("p").allTextContents();
  expect(labels.indexOf("Guides")).toBeGreaterThanOrEqual(0);
  expect(labels.indexOf("Guides")).toBeLessThan(labels.indexOf("Resources"));
  await guides.getByRole("link", { name: "Webhooks" }).click();
  await expect(page).toHaveURL(/\/docs\/guides\/webhooks$/);
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  await expect(guides.getByRole("link", { name: "Webhooks" })).toHaveAttribute("aria-current", "page");
});

test('search finds "webhooks" and Enter opens that guide', async ({ page }) => {
  await page.goto("/docs/v2/conversations");
  const box = page.getByRole("combobox", { name: "Search the API reference" });
  await box.focus();
  await box.pressSequentially("webhooks");
  const results = page.getByRole("listbox", { name: "Search results" });
  await expect(results.getByRole("option").first()).toContainText("Webhooks");
  await box.press("Enter");
  await expect(page).toHaveURL(/\/docs\/guides\/webhooks$/);
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  // Every event is there with an example body.
  await expect(page.getByRole("heading", { name: "conversation.started", level: 3 })).toBeVisible();
  await expect(page.getByRole("tab", { name: "PHP" })).toBeVisible();
});

test("the JS API guide shows the install snippet and the hash in four languages", async ({ page }) => {
  await page.goto("/docs/guides/messenger-js-api");
  await expect(
    page.getByRole("heading", { name: "Messenger JS API and identity verification", level: 1 }),
  ).toBeVisible();
  const snippet = page.getByLabel("Install snippet");
  await expect(snippet).toContainText("window.Relay = window.Relay ||");
  await expect(snippet).toContainText("/messenger.js");
  await expect(snippet).toContainText('"trackMessageInteraction"');
  const tabs = page.getByRole("tablist", { name: "Server language" });
  await expect(tabs.getByRole("tab")).toHaveText(["Node.js", "Python", "PHP", "Ruby"]);
  await expect(page.getByText("createHmac")).toBeVisible();
  await tabs.getByRole("tab", { name: "Ruby" }).click();
  await expect(page.getByText("OpenSSL::HMAC.hexdigest")).toBeVisible();
  await expect(page.getByLabel("Page auth call")).toContainText('Relay("auth", "USER_ID", "USER_HASH")');
  await page.screenshot({ path: "/tmp/docs-guide-js-api.png", fullPage: true });
});

test("the authentication, pagination and filters guides are in the side navigation, with their tables", async ({
  page,
}) => {
  await page.goto("/docs/v2/conversations");
  const guides = page.getByRole("navigation", { name: "Resources" }).getByRole("list", { name: "Guides" });
  await guides.getByRole("link", { name: "Authentication, scopes and v3 tokens" }).click();
  await expect(page).toHaveURL(/\/docs\/guides\/authentication$/);
  await expect(
    page.getByRole("heading", { name: "Authentication, scopes and v3 tokens", level: 1 }),
  ).toBeVisible();
  const scopes = page.getByRole("table", { name: "Scopes" });
  await expect(scopes.getByRole("row", { name: /conversations-read/ })).toBeVisible();
  await expect(page.getByLabel("Exchanging an API key")).toContainText("/api/v3/auth/token");
  // The session-only list links to the endpoint, whose reference carries the mark.
  await page.getByRole("link", { name: "GET /auth/me" }).first().click();
  await expect(page).toHaveURL(/\/docs\/v2\/panel#get-auth-me$/);
  const me = page.getByRole("region", { name: "GET /auth/me" });
  await expect(me.getByText("Operator session only")).toBeVisible();
  await expect(me.getByRole("tabpanel")).toContainText("Cookie: relay_session=");

  await guides.getByRole("link", { name: "Pagination" }).click();
  await expect(page.getByRole("heading", { name: "Pagination", level: 1 })).toBeVisible();
  await expect(page.getByRole("table", { name: "Version 2 paging parameters" })).toContainText(
    "paginate_position",
  );
  await expect(page.getByText("10,000 rows are reachable")).toBeVisible();

  await guides.getByRole("link", { name: "Filtering leads" }).click();
  await expect(page.getByRole("heading", { name: "Filtering leads", level: 1 })).toBeVisible();
  await expect(page.getByRole("table", { name: "Condition types" })).toContainText("in_segment");
  await expect(page.getByLabel("A condition type the property does not take: error_fields")).toContainText(
    "filters.filters.0.type",
  );
});

test("search finds the new guides by title and by keyword", async ({ page }) => {
  await page.goto("/docs");
  const box = page.getByRole("combobox", { name: "Search the API reference" });
  const results = page.getByRole("listbox", { name: "Search results" });
  for (const [query, title, slug] of [
    ["pagination", "Pagination", "pagination"],
    ["jwks", "Authentication, scopes and v3 tokens", "authentication"],
    ["filtering leads", "Filtering leads", "leads-filters"],
  ] as const) {
    await box.fill("");
    await box.pressSequentially(query);
    await expect(results.getByRole("option").first()).toContainText(title);
    await box.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/docs/guides/${slug}$`));
    await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  }
});
