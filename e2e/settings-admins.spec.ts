import type { Page } from "@playwright/test";
import { expect, logInThroughForm, test } from "./support/fixtures";

async function openAdminsTab(page: Page) {
  await expect(page).toHaveURL(/\/inbox$/);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await page.getByRole("tab", { name: "Operators" }).click();
  await expect(page.getByRole("tab", { name: "Operators" })).toHaveAttribute("aria-selected", "true");
}

test.describe("operators", () => {
  test("an owner adds an operator who logs in, then removes them and their access ends", async ({
    page,
    admin,
    browser,
    e2e,
  }) => {
    // Two browsers and two logins on a shared, busy machine.
    test.setTimeout(90_000);
    await logInThroughForm(page, admin);
    await openAdminsTab(page);
    const list = page.getByRole("list", { name: "Operators" });
    await expect(list.getByTestId("admin-row").filter({ hasText: admin.email })).toContainText("Owner");

    const stamp = Date.now();
    const newcomer = {
      name: `Olga ${stamp}`,
      email: `olga-${stamp}@example.test`,
      password: "olga-e2e-pass",
    };
    const form = page.getByRole("form", { name: "Add an operator" });
    // Refused input is explained, and nothing is added.
    await form.getByLabel("Email").fill(newcomer.email);
    await form.getByRole("button", { name: "Add operator" }).click();
    await expect(form.getByRole("alert")).toContainText("A password is required for a new operator.");

    await form.getByLabel("Name").fill(newcomer.name);
    await form.getByLabel("Password").fill(newcomer.password);
    await form.getByRole("button", { name: "Add operator" }).click();
    await expect(form.getByRole("status")).toContainText(`${newcomer.name} (${newcomer.email})`);
    const row = list.getByTestId("admin-row").filter({ hasText: newcomer.email });
    await expect(row).toContainText(newcomer.name);
    await expect(row).toContainText("Operator");

    // The newcomer, in a browser of their own.
    const theirs = await browser.newContext({ baseURL: e2e.baseURL });
    const them = await theirs.newPage();
    await logInThroughForm(them, newcomer);
    await openAdminsTab(them);
    await expect(them.getByText("Only the app’s owners can add or remove operators.")).toBeVisible();
    await expect(them.getByRole("form", { name: "Add an operator" })).toHaveCount(0);
    await expect(them.getByRole("button", { name: /^Remove / })).toHaveCount(0);
    const me = (await (await them.request.get("/api/auth/me")).json()) as {
      data: { apps: { id: number }[]; csrf_token: string };
    };
    const appId = me.data.apps[0]!.id;
    expect((await them.request.get(`/api/apps/${appId}/admins`)).status()).toBe(200);

    await row.getByRole("button", { name: `Remove ${newcomer.name}` }).click();
    await page.getByRole("button", { name: "Remove operator" }).click();
    await expect(list.getByTestId("admin-row").filter({ hasText: newcomer.email })).toHaveCount(0);
    // The URL's hash keeps the tab across a reload; the server's list agrees.
    await page.reload();
    await expect(page.getByRole("tab", { name: "Operators" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByTestId("admin-row").filter({ hasText: admin.email })).toBeVisible();
    await expect(page.getByTestId("admin-row").filter({ hasText: newcomer.email })).toHaveCount(0);

    // Their session lives on, but no longer reaches the app.
    const after = await them.request.get(`/api/apps/${appId}/admins`);
    expect(after.status()).toBe(403);
    expect(((await after.json()) as { meta: { error: string } }).meta.error).toBe("PermissionDenied");
    await theirs.close();
  });
});
