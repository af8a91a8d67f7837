import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Page } from "@playwright/test";
import { SCOPE_DESCRIPTIONS, SCOPES } from "../lib/auth/scopes";
import { expect, logInThroughForm, test } from "./support/fixtures";

// Set E2E_SCREENSHOTS=/some/dir to save screenshots of the settings page.
const SHOTS = process.env.E2E_SCREENSHOTS;
async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function openSettings(page: Page, admin: { email: string; password: string }) {
  await logInThroughForm(page, admin);
  await expect(page).toHaveURL(/\/inbox$/);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings/);
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
}

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 that answers 200 and remembers what it got. */
async function startReceiver(): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/relay`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test.describe("settings", () => {
  test("an API key created in the UI works through the API until it is revoked", async ({
    page,
    admin,
    e2e,
    request,
  }) => {
    await openSettings(page, admin);
    await expect(page.getByRole("tab", { name: "API keys" })).toHaveAttribute("aria-selected", "true");

    const name = `E2E key ${Date.now()}`;
    await page.getByLabel("Name").fill(name);
    // Every scope of the server's list is checked by default, each with its line on what it allows.
    for (const scope of SCOPES) {
      await expect(page.getByRole("checkbox", { name: new RegExp(`^${scope} `) })).toBeChecked();
      await expect(page.getByText(SCOPE_DESCRIPTIONS[scope])).toBeVisible();
    }
    await page.getByRole("button", { name: "Create key" }).click();

    const tokenBox = page.getByTestId("new-api-token");
    await expect(tokenBox).toBeVisible();
    await expect(page.getByText("you won’t see it again", { exact: false })).toBeVisible();
    const token = await tokenBox.inputValue();
    expect(token).toMatch(/^rly_\S+$/);

    const row = page.getByTestId("api-key-row").filter({ hasText: name });
    await expect(row).toContainText("Active");
    await expect(row.getByRole("list", { name: "Scopes" }).getByRole("listitem")).toHaveText([...SCOPES]);
    await shot(page, "settings-api-key-created");

    const app = e2e.admin.appId ?? "$self_app";
    const auth = { Authorization: `Token ${token}` };
    const ping = await request.get("/api/ping", { headers: auth });
    expect(ping.status()).toBe(200);
    const channels = await request.get(`/api/apps/${app}/channels`, { headers: auth });
    expect(channels.status()).toBe(200);
    expect(Array.isArray(((await channels.json()) as { data: unknown }).data)).toBe(true);

    // Revoke asks first; Escape backs out.
    await row.getByRole("button", { name: `Revoke ${name}` }).click();
    await expect(row.getByRole("button", { name: "Revoke key" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(row.getByRole("button", { name: `Revoke ${name}` })).toBeFocused();
    await row.getByRole("button", { name: `Revoke ${name}` }).click();
    await row.getByRole("button", { name: "Revoke key" }).click();
    await expect(row).toContainText("Revoked");
    await shot(page, "settings-api-key-revoked");

    await expect.poll(async () => (await request.get("/api/ping", { headers: auth })).status()).toBe(401);
    expect((await request.get(`/api/apps/${app}/channels`, { headers: auth })).status()).toBe(401);

    // Still revoked after a reload (the server's state, not only the optimistic one).
    await page.reload();
    await expect(page.getByTestId("api-key-row").filter({ hasText: name })).toContainText("Revoked");
  });

  test("a failed revoke rolls back and shows the server's message", async ({ page, admin }) => {
    await openSettings(page, admin);
    const name = `Rollback key ${Date.now()}`;
    await page.getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(page.getByTestId("new-api-token")).toBeVisible();

    await page.route("**/api/apps/*/api_keys/*", (route) =>
      route.request().method() === "DELETE"
        ? route.fulfill({
            status: 403,
            contentType: "application/json",
            body: JSON.stringify({
              data: {},
              meta: { status: 403, error: "PermissionDenied", error_message: "Not allowed today." },
            }),
          })
        : route.continue(),
    );
    const row = page.getByTestId("api-key-row").filter({ hasText: name });
    await row.getByRole("button", { name: `Revoke ${name}` }).click();
    await row.getByRole("button", { name: "Revoke key" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toContainText("Not allowed today.");
    await expect(row).toContainText("Active");
    await expect(row.getByRole("button", { name: `Revoke ${name}` })).toBeVisible();
  });

  test("a webhook created in the UI receives a test delivery, shown in its log", async ({ page, admin }) => {
    const receiver = await startReceiver();
    try {
      await openSettings(page, admin);
      await page.getByRole("tab", { name: "Webhooks" }).click();
      await expect(page).toHaveURL(/#webhooks$/);
      await page.getByRole("button", { name: "Add webhook" }).click();

      const form = page.getByRole("form", { name: "Add a webhook" });
      // The form says what is missing before asking the server.
      await form.getByRole("button", { name: "Create webhook" }).click();
      await expect(form.getByText("Choose at least one event kind.")).toBeVisible();

      await form.getByLabel("Endpoint URL").fill(receiver.url);
      await form.getByRole("checkbox", { name: "conversation.started" }).check();
      await form.getByRole("checkbox", { name: "conversation.user_replied" }).check();
      await shot(page, "settings-webhook-form");
      await form.getByRole("button", { name: "Create webhook" }).click();

      const secret = await page.getByTestId("new-webhook-secret").inputValue();
      expect(secret).toMatch(/^whsec_/);

      const detail = page.getByTestId("webhook-detail");
      await expect(detail).toBeVisible();
      await expect(detail.getByRole("switch", { name: "Active" })).toHaveAttribute("aria-checked", "true");
      await expect(detail).toContainText("Nothing delivered yet");

      await detail.getByRole("button", { name: "Send test" }).click();
      const delivery = detail.getByTestId("delivery-row").first();
      await expect(delivery).toHaveAttribute("data-status", "succeeded", { timeout: 20_000 });
      await expect(delivery).toContainText("200");
      await expect(delivery).toContainText("test");
      await shot(page, "settings-webhook-delivered");

      // The receiver got a request signed with the secret shown after create.
      expect(receiver.received.length).toBeGreaterThan(0);
      const got = receiver.received[receiver.received.length - 1]!;
      const ts = String(got.headers["x-webhook-timestamp"]);
      const expected = crypto.createHmac("sha256", secret).update(`${ts}.${got.body}`).digest("hex");
      expect(got.headers["x-webhook-signature"]).toBe(`sha256=${expected}`);

      // Pause it: the switch and the list change, and it stays paused after a reload.
      await detail.getByRole("switch", { name: "Active" }).click();
      await expect(detail.getByRole("switch", { name: "Active" })).toHaveAttribute("aria-checked", "false");
      const row = page.getByTestId("webhook-row").filter({ hasText: receiver.url });
      await expect(row).toContainText("Paused");
      await page.reload();
      await expect(page.getByRole("tab", { name: "Webhooks" })).toHaveAttribute("aria-selected", "true");
      await expect(page.getByTestId("webhook-row").filter({ hasText: receiver.url })).toContainText("Paused");

      await page.setViewportSize({ width: 390, height: 900 });
      await page
        .getByTestId("webhook-row")
        .filter({ hasText: receiver.url })
        .getByRole("button", { name: /Show details/ })
        .click();
      await expect(page.getByTestId("delivery-row").first()).toBeVisible();
      await shot(page, "settings-webhook-narrow");
      await page.setViewportSize({ width: 1280, height: 800 });

      // Delete asks first, then the subscription leaves the list.
      await page
        .getByTestId("webhook-detail")
        .getByRole("button", { name: /Delete webhook/ })
        .click();
      await page.getByTestId("webhook-detail").getByRole("button", { name: "Delete webhook" }).click();
      await expect(page.getByTestId("webhook-row").filter({ hasText: receiver.url })).toHaveCount(0);
    } finally {
      await receiver.close();
    }
  });

  test("channels are listed, and the tabs work from the keyboard", async ({ page, admin }) => {
    await openSettings(page, admin);
    const apiTab = page.getByRole("tab", { name: "API keys" });
    await apiTab.focus();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tab", { name: "Webhooks" })).toBeFocused();
    await page.keyboard.press("ArrowRight");
    const channelsTab = page.getByRole("tab", { name: "Channels" });
    await expect(channelsTab).toBeFocused();
    await expect(channelsTab).toHaveAttribute("aria-selected", "true");
    const panel = page.getByRole("tabpanel", { name: "Channels" });
    await expect(panel.getByRole("heading", { name: "Channels" })).toBeVisible();
    await expect(panel.getByTestId("channels-table").or(panel.getByText("No channels yet."))).toBeVisible();
    await shot(page, "settings-channels");
    await page.setViewportSize({ width: 390, height: 800 });
    await page.getByRole("tab", { name: "API keys" }).click();
    await shot(page, "settings-narrow");
  });
});
