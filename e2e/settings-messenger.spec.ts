import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, logInThroughForm, test } from "./support/fixtures";

/** Settings → Messenger of the admin's app, reached by keyboard-friendly roles as an operator would. */
async function openMessenger(page: Page, admin: { email: string; password: string }) {
  await logInThroughForm(page, admin);
  await expect(page).toHaveURL(/\/inbox$/);
  await page.goto("/settings#messenger");
  await expect(page.getByRole("tab", { name: "Messenger" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("heading", { name: "Install" })).toBeVisible();
}

// Set E2E_SCREENSHOTS=/some/dir to save a screenshot of the section.
async function shot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

const stamp = () => Date.now().toString(36);

test.describe("settings: messenger", () => {
  test("appearance and origins are saved and shown after a reload", async ({ page, admin }) => {
    await openMessenger(page, admin);
    const greeting = `Hello from e2e ${stamp()}`;
    const appearance = page.getByRole("form", { name: "Appearance" });
    await appearance.getByLabel("Greeting").fill(greeting);
    await appearance.getByRole("textbox", { name: "Accent colour", exact: true }).fill("#0F766E");
    await appearance.getByRole("radio", { name: "Bottom left" }).check();
    // The preview follows the form before anything is saved.
    await expect(appearance.getByTestId("messenger-preview")).toContainText(greeting);
    await appearance.getByRole("button", { name: "Save appearance" }).click();
    await expect(appearance.getByText("Saved.")).toBeVisible();

    const origins = page.getByRole("form", { name: "Allowed origins" });
    const port = 3000 + (Date.now() % 1000);
    await origins
      .getByLabel("Origins, one per line")
      .fill(`HTTPS://Shop.Example.com/\nhttp://localhost:${port}`);
    await origins.getByRole("button", { name: "Save origins" }).click();
    await expect(origins.getByText("Saved.")).toBeVisible();
    // The server's normalized form replaces what was typed.
    await expect(origins.getByLabel("Origins, one per line")).toHaveValue(
      `https://shop.example.com\nhttp://localhost:${port}`,
    );

    await page.reload();
    await expect(page.getByRole("heading", { name: "Install" })).toBeVisible();
    await expect(page.getByRole("form", { name: "Appearance" }).getByLabel("Greeting")).toHaveValue(greeting);
    await expect(
      page
        .getByRole("form", { name: "Appearance" })
        .getByRole("textbox", { name: "Accent colour", exact: true }),
    ).toHaveValue("#0f766e");
    await expect(page.getByRole("radio", { name: "Bottom left" })).toBeChecked();
    await expect(page.getByLabel("Origins, one per line")).toHaveValue(
      `https://shop.example.com\nhttp://localhost:${port}`,
    );
  });

  test("an invalid origin shows the API's error and is not saved", async ({ page, admin }) => {
    await openMessenger(page, admin);
    const origins = page.getByRole("form", { name: "Allowed origins" });
    const before = await origins.getByLabel("Origins, one per line").inputValue();
    await origins.getByLabel("Origins, one per line").fill("https://ok.example.com\nshop.example.com/cart");
    await origins.getByRole("button", { name: "Save origins" }).click();
    const alert = origins.getByRole("alert");
    await expect(alert).toContainText("Could not save the origins");
    await expect(alert).toContainText('"shop.example.com/cart" is not an origin');
    await page.reload();
    await expect(page.getByLabel("Origins, one per line")).toHaveValue(before);
  });

  test("the install snippet: a queueing stub, then the loader with the public key; copied whole", async ({
    page,
    admin,
    context,
  }) => {
    await openMessenger(page, admin);
    const snippet = page.getByTestId("messenger-snippet");
    // The stub lets a page call the JS API right after the snippet (the loader is async).
    await expect(snippet).toContainText("window.Relay = window.Relay || function");
    await expect(snippet).toContainText("carrotquestasync.push(m, arguments)");
    await expect(snippet).toHaveText(
      /^<script>[\s\S]+<\/script>\n<script async src="http:\/\/127\.0\.0\.1:\d+\/messenger\.js" data-key="mk_[\w-]{24}"><\/script>$/,
    );
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy snippet" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await snippet.textContent());
  });

  test("the identity switch saves from the keyboard and keeps the focus", async ({ page, admin }) => {
    await openMessenger(page, admin);
    const box = page.getByRole("checkbox", { name: /Require identity verification/ });
    await expect(box).toBeVisible();
    // On by default: off, then back as it was.
    const was = await box.isChecked();
    for (const next of [!was, was]) {
      await box.focus();
      const saved = page.waitForResponse(
        (r) => /\/apps\/\d+\/messenger$/.test(r.url()) && r.request().method() === "POST",
      );
      await page.keyboard.press("Space");
      expect((await saved).status()).toBe(200);
      await expect(box).toBeChecked({ checked: next });
      // Once saved, the keyboard user is still on the switch (a disabled one loses the focus to the page).
      await expect(box).toBeFocused();
    }
  });

  test("a rotated identity secret is shown once", async ({ page, admin }) => {
    await openMessenger(page, admin);
    const identity = page.getByRole("region", { name: "Identity verification" });
    await identity.getByRole("button", { name: "Rotate secret" }).click();
    await identity.getByRole("button", { name: "Rotate", exact: true }).click();
    const box = page.getByTestId("identity-secret");
    await expect(box).toBeVisible();
    const secret = await box.inputValue();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await expect(identity.getByRole("button", { name: "Copy" })).toBeVisible();
    await identity.getByRole("tab", { name: "PHP" }).click();
    await expect(identity.getByLabel("PHP example")).toContainText("hash_hmac('sha256'");

    await page.reload();
    await expect(page.getByRole("heading", { name: "Identity verification" })).toBeVisible();
    await expect(page.getByTestId("identity-secret")).toHaveCount(0);
    await expect(page.getByText(`${secret.slice(0, 6)}…`)).toBeVisible();
    await expect(page.locator("body")).not.toContainText(secret);
    await shot(page, "settings-messenger");
  });

  test("verification is on for a new app; turned off, the page says what an unverified user ID allows", async ({
    page,
    admin,
  }) => {
    await openMessenger(page, admin);
    const identity = page.getByRole("region", { name: "Identity verification" });
    const required = identity.getByRole("checkbox", { name: /Require identity verification/ });
    await expect(required).toBeChecked();
    await expect(identity.getByRole("note")).toHaveCount(0);
    await expect(identity.getByLabel("Page example")).toContainText('Relay("auth", "USER_ID", "USER_HASH")');
    await identity.getByRole("tab", { name: "Ruby" }).click();
    await expect(identity.getByLabel("Ruby example")).toContainText("OpenSSL::HMAC.hexdigest");

    // The box follows the settings query, which the optimistic update changes a task after the click: a click
    // then a retried assertion, not check(), which reads the box at once and calls an unchanged one a failure.
    await required.click();
    await expect(required).not.toBeChecked();
    await expect(identity.getByRole("note")).toContainText("kept only as an unverified label");
    // Disabled while the change is on its way: a reload before it is stored would abort it.
    await expect(required).toBeEnabled();
    await page.reload();
    await expect(required).not.toBeChecked();
    await required.click();
    await expect(required).toBeChecked();
    await expect(identity.getByRole("note")).toHaveCount(0);
  });
});
