import { expect, logInThroughForm, test } from "./support/fixtures";

/**
 * The API reference (/docs) as a reader meets it: resources at the side, a search box that "/" focuses and Enter
 * follows, a version selector, and each endpoint's parameters, response example and request in four languages.
 * No login: the reference is public.
 */

test("the side navigation opens a resource's page", async ({ page }) => {
  await page.goto("/docs");
  await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Resources" });
  await nav.getByRole("link", { name: /^Users/ }).click();
  await expect(page).toHaveURL(/\/docs\/v2\/users$/);
  await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
  await expect(nav.getByRole("link", { name: /^Users/ })).toHaveAttribute("aria-current", "page");
  await page.screenshot({ path: "/tmp/docs-navigation.png" });
});

test('search: "/" focuses it, "conversations" finds the resource, Enter opens it', async ({ page }) => {
  await page.goto("/docs");
  const box = page.getByRole("combobox", { name: "Search the API reference" });
  await page.locator("body").press("/");
  await expect(box).toBeFocused();
  await box.pressSequentially("conversations");
  const results = page.getByRole("listbox", { name: "Search results" });
  await expect(results.getByRole("option").first()).toHaveText("Conversations");
  await box.press("Enter");
  await expect(page).toHaveURL(/\/docs\/v2\/conversations$/);
  await expect(page.getByRole("heading", { name: "Conversations", level: 1 })).toBeVisible();

  // An endpoint hit goes to its anchor.
  await box.focus();
  await box.pressSequentially("reply conversations/{id}");
  await box.press("Enter");
  await expect(page).toHaveURL(/#post-conversations-id-reply$/);
  await expect(page.locator("#post-conversations-id-reply")).toBeInViewport();
});

test("the version selector shows v1 as deprecated and keeps the resource", async ({ page }) => {
  await page.goto("/docs/v2/conversations");
  const select = page.getByRole("combobox", { name: "API version" });
  await expect(select).toHaveValue("v2");
  await expect(select.locator("option[value=v1]")).toHaveText(/deprecated/);
  await select.selectOption("v1");
  await expect(page).toHaveURL(/\/docs\/v1\/conversations$/);
  await expect(page.getByRole("note")).toContainText("deprecated");
  await expect(page.getByText("Deprecated", { exact: true }).first()).toBeVisible();
  await page.getByRole("combobox", { name: "API version" }).selectOption("v3");
  await expect(page).toHaveURL(/\/docs\/v3\/conversations$/);
  await expect(page.getByRole("note")).toHaveCount(0);
});

test("an endpoint shows its parameters, a response example and keyboard-usable code tabs", async ({
  page,
}) => {
  await page.goto("/docs/v2/conversations#post-conversations-id-reply");
  const section = page.getByRole("region", { name: "POST /conversations/{id}/reply" });
  await expect(section).toBeInViewport();
  const params = section.getByRole("table", { name: "Parameters" });
  await expect(params.getByRole("rowheader", { name: /^id\s*required$/ })).toBeVisible();
  await expect(params.getByRole("rowheader", { name: /^body$/ })).toBeVisible();
  await expect(section.getByRole("figure", { name: "Response example" })).toContainText('"conversation":');
  await expect(section.getByRole("table", { name: "Errors" })).toContainText("LookupError");

  const tabs = section.getByRole("tablist", { name: /Request example/ });
  await expect(tabs.getByRole("tab")).toHaveText(["curl", "JavaScript", "Python", "PHP"]);
  const panel = section.getByRole("tabpanel");
  await expect(panel).toContainText("curl -X POST");
  await section.screenshot({ path: "/tmp/docs-endpoint.png" });

  await tabs.getByRole("tab", { name: "curl" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(tabs.getByRole("tab", { name: "JavaScript" })).toBeFocused();
  await expect(tabs.getByRole("tab", { name: "JavaScript" })).toHaveAttribute("aria-selected", "true");
  await expect(panel).toContainText("await fetch(");
  await page.keyboard.press("End");
  await expect(panel).toContainText("curl_setopt_array");
  await page.keyboard.press("ArrowRight");
  await expect(tabs.getByRole("tab", { name: "curl" })).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(panel).toContainText("import requests");
});

test("try it: a request runs from the page with the operator's session, or with a pasted token", async ({
  page,
  admin,
}) => {
  await logInThroughForm(page, admin);
  await expect(page).toHaveURL(/\/inbox/);
  const me = (await (await page.request.get("/api/auth/me")).json()) as { data: { apps: { id: number }[] } };
  const appId = me.data.apps[0]!.id;
  await page.goto("/docs/v2/apps");
  const section = page.getByRole("region", { name: "GET /apps/{id}/conversations", exact: true });
  await section.getByText("Try it", { exact: true }).click();
  const url = section.getByRole("textbox", { name: /URL$/ });
  await url.fill(`/api/apps/${appId}/conversations`);
  await section.getByRole("button", { name: "Send request" }).click();
  const answer = section.getByRole("figure", { name: "Answer" });
  await expect(answer.getByRole("status")).toHaveText("Answer · 200");
  await expect(answer).toContainText('"status": 200');
  await section.screenshot({ path: "/tmp/docs-try-it.png" });

  await section.getByLabel(/^API token/).fill("not-a-token");
  await section.getByRole("button", { name: "Send request" }).click();
  await expect(answer.getByRole("status")).toHaveText("Answer · 401");
  await expect(answer).toContainText('"error": "AuthenticationFailed"');
});

test("try it on a session-only endpoint: no token field, and the session answers", async ({
  page,
  admin,
}) => {
  await logInThroughForm(page, admin);
  await expect(page).toHaveURL(/\/inbox/);
  await page.goto("/docs/v2/notifications");
  const section = page.getByRole("region", { name: "GET /notifications", exact: true });
  await section.getByText("Try it", { exact: true }).click();
  const form = section.getByRole("form", { name: /^Try GET/ });
  await expect(form.getByRole("textbox", { name: /URL$/ })).toBeVisible();
  await expect(form.getByLabel(/token/i)).toHaveCount(0);
  await expect(form).toContainText("Sent with your operator session (API tokens are refused here).");
  await form.getByRole("button", { name: "Send request" }).click();
  const answer = section.getByRole("figure", { name: "Answer" });
  await expect(answer.getByRole("status")).toHaveText("Answer · 200");
  await expect(answer).toContainText('"unread":');
});
