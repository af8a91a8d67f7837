import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { io as ioClient, type Socket } from "socket.io-client";
import { expect, logInThroughForm, test } from "./support/fixtures";

// Set E2E_SCREENSHOTS=/some/dir to save screenshots of the login page and the panel shell.
const SHOTS = process.env.E2E_SCREENSHOTS;
async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

function connectFromNode(
  baseURL: string,
  cookie?: string,
): Promise<{ ok: true } | { ok: false; message: string }> {
  return new Promise((resolve) => {
    const socket: Socket = ioClient(baseURL, {
      path: "/socket.io",
      reconnection: false,
      forceNew: true,
      timeout: 10_000,
      extraHeaders: cookie ? { cookie } : {},
    });
    socket.on("connect", () => {
      socket.disconnect();
      resolve({ ok: true });
    });
    socket.on("connect_error", (err) => {
      socket.disconnect();
      resolve({ ok: false, message: err.message });
    });
  });
}

test.describe("operator authentication", () => {
  test("logs in, then logs out", async ({ page, admin }) => {
    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Log in to Relay" })).toBeVisible();
    await shot(page, "login");

    await logInThroughForm(page, admin);
    await expect(page).toHaveURL(/\/inbox$/);
    await expect(page.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Inbox" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Leads" })).not.toHaveAttribute("aria-current");
    await expect(page.getByTestId("admin-name")).toHaveText(admin.name);
    await expect(page.getByText(admin.appName)).toBeVisible();

    await nav.getByRole("link", { name: "Leads" }).click();
    await expect(page).toHaveURL(/\/leads$/);
    await expect(nav.getByRole("link", { name: "Leads" })).toHaveAttribute("aria-current", "page");

    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { name: "Log in to Relay" })).toBeVisible();
    expect((await page.context().cookies()).find((c) => c.name === "relay_session")).toBeUndefined();

    await page.goto("/inbox");
    await expect(page).toHaveURL(/\/login\?next=%2Finbox$/);
  });

  test("a wrong password shows the server's message", async ({ page, admin }) => {
    await page.goto("/login");
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Log in" }).click();
    // (Next.js adds its own empty route-announcer alert outside main.)
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Wrong email or password.");
    await expect(page).toHaveURL(/\/login$/);
    await shot(page, "login-error");
    // The form is usable again, with the password ready to be retyped.
    await expect(page.getByRole("button", { name: "Log in" })).toBeEnabled();
    await expect(page.getByLabel("Password")).toBeFocused();
  });

  test("the panel's socket connects with the session; a cookieless one is refused", async ({
    page,
    admin,
    baseURL,
  }) => {
    await logInThroughForm(page, admin);
    await expect(page).toHaveURL(/\/inbox$/);
    const indicator = page.getByTestId("connection-status");
    await expect(indicator).toHaveAttribute("data-state", "connected");
    await expect(indicator).toHaveText("Live");
    await shot(page, "panel");
    if (SHOTS) {
      await page.setViewportSize({ width: 390, height: 800 });
      await shot(page, "panel-narrow");
      await page.setViewportSize({ width: 1280, height: 800 });
    }

    const session = (await page.context().cookies()).find((c) => c.name === "relay_session");
    expect(session, "the session cookie").toBeTruthy();
    expect(session!.httpOnly).toBe(true);
    expect(session!.sameSite).toBe("Lax");

    expect(await connectFromNode(baseURL!, `relay_session=${session!.value}`)).toEqual({ ok: true });
    expect(await connectFromNode(baseURL!)).toEqual({ ok: false, message: "AuthenticationFailed" });
    expect(await connectFromNode(baseURL!, "relay_session=rls_forged")).toEqual({
      ok: false,
      message: "AuthenticationFailed",
    });
  });

  test("an anonymous visit to the panel goes to the login page, then back", async ({ page, admin }) => {
    await page.goto("/inbox");
    await expect(page).toHaveURL(/\/login\?next=%2Finbox$/);

    await page.goto("/leads");
    await expect(page).toHaveURL(/\/login\?next=%2Fleads$/);
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/leads$/);
    await expect(page.getByRole("heading", { level: 1, name: "Leads" })).toBeVisible();

    // Logged in: the login page and the root both lead to the panel.
    await page.goto("/login");
    await expect(page).toHaveURL(/\/inbox$/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/inbox$/);
  });

  test("the login page ignores a next parameter that leaves the site", async ({ page, admin }) => {
    await logInThroughForm(page, admin, "/login?next=%2F%2Fevil.example%2Fx");
    await expect(page).toHaveURL(/\/inbox$/);
  });
});
