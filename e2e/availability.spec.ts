import type { Page } from "@playwright/test";
import { expect, logInThroughForm, test } from "./support/fixtures";

async function openOperators(page: Page) {
  await expect(page).toHaveURL(/\/inbox$/);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await page.getByRole("tab", { name: "Operators" }).click();
  await expect(page.getByRole("tab", { name: "Operators" })).toHaveAttribute("aria-selected", "true");
}

test.describe("operator availability", () => {
  test("A sets themself Away and B sees it live, then Available again", async ({
    page,
    admin,
    browser,
    e2e,
  }) => {
    // Two browsers and two logins on a shared, busy machine.
    test.setTimeout(90_000);
    await logInThroughForm(page, admin);
    const toggle = page.getByTestId("availability-toggle");
    await expect(toggle).toBeVisible();
    // A fresh run may find A Away from an earlier test: start from Available.
    if ((await toggle.getAttribute("data-state")) === "away") await toggle.click();
    await expect(toggle).toHaveAttribute("aria-checked", "true");

    const me = (await (await page.request.get("/api/auth/me")).json()) as {
      data: { admin: { id: number }; apps: { id: number }[]; csrf_token: string };
    };
    const appId = me.data.apps[0]!.id;
    const stamp = Date.now();
    const b = { name: `Bea ${stamp}`, email: `bea-${stamp}@example.test`, password: "bea-e2e-pass" };
    const added = await page.request.post(`/api/apps/${appId}/admins`, {
      headers: { "X-CSRF-Token": me.data.csrf_token },
      data: b,
    });
    expect(added.status()).toBe(200);

    const theirs = await browser.newContext({ baseURL: e2e.baseURL });
    const them = await theirs.newPage();
    await logInThroughForm(them, b);
    await openOperators(them);
    const aDot = them
      .getByTestId("availability-dot")
      .and(them.locator(`[data-admin-id="${me.data.admin.id}"]`));
    await expect(aDot).toHaveAttribute("data-state", "available");

    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-checked", "false");
    await expect(toggle).toHaveText("Away");
    // B's page hears it on the socket: no reload.
    await expect(aDot).toHaveAttribute("data-state", "away", { timeout: 15_000 });
    await expect(aDot).toHaveAttribute("title", "Away");

    await toggle.click();
    await expect(aDot).toHaveAttribute("data-state", "available", { timeout: 15_000 });
    // Operators show the toggle with the keyboard too.
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(aDot).toHaveAttribute("data-state", "away", { timeout: 15_000 });
    await toggle.click();
    await theirs.close();

    // The owner turns round-robin routing on with a cap; it is kept.
    await openOperators(page);
    const form = page.getByRole("form", { name: "Routing" });
    await form.getByLabel("Assign new conversations").selectOption("round_robin");
    await form.getByLabel("Max open conversations per operator").fill("3");
    await form.getByRole("button", { name: "Save routing" }).click();
    await expect
      .poll(async () => (await (await page.request.get(`/api/apps/${appId}/routing`)).json()) as unknown)
      .toMatchObject({ data: { routing: "round_robin", routing_cap: 3 } });
    await page.reload();
    await page.getByRole("tab", { name: "Operators" }).click();
    await expect(form.getByLabel("Assign new conversations")).toHaveValue("round_robin");
    await form.getByLabel("Assign new conversations").selectOption("off");
    await form.getByRole("button", { name: "Save routing" }).click();
    await expect
      .poll(async () => (await (await page.request.get(`/api/apps/${appId}/routing`)).json()) as unknown)
      .toMatchObject({ data: { routing: "off" } });
  });
});
