import type { Page } from "@playwright/test";
import { expect, logInThroughForm, test } from "./support/fixtures";

/** Every console error, failed request and error answer of a page while it is open. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) =>
    problems.push(`failed: ${r.method()} ${r.url()} ${r.failure()?.errorText}`),
  );
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`${r.status()}: ${r.request().method()} ${r.url()}`);
  });
  return problems;
}

test.describe("the login page", () => {
  test("asks nobody who is logged in: no console error, failed request or error answer", async ({ page }) => {
    const problems = watch(page);
    await page.goto("/login?next=%2Fleads");
    await expect(page.getByRole("heading", { name: "Log in to Relay" })).toBeVisible();
    // The page's script has run and settled: the form is the script's (typing works, focus is on the email).
    await expect(page.getByLabel("Email")).toBeFocused();
    await page.waitForLoadState("networkidle");
    expect(problems).toEqual([]);
  });

  test("sends an operator already logged in straight to the panel, decided by the server", async ({
    page,
    admin,
  }) => {
    await logInThroughForm(page, admin, "/login?next=%2Fleads");
    await expect(page).toHaveURL(/\/leads$/);
    const problems = watch(page);
    const answer = await page.request.get("/login?next=%2Freports", { maxRedirects: 0 });
    expect(answer.status()).toBe(307);
    expect(answer.headers().location).toMatch(/\/reports$/);
    await page.goto("/login");
    await expect(page).toHaveURL(/\/inbox$/);
    await expect(page.getByTestId("admin-name")).toHaveText(admin.name);
    await page.waitForLoadState("networkidle");
    expect(problems).toEqual([]);
  });
});
