import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { test, expect, logInThroughForm } from "./support/fixtures";
import { readState } from "./support/state";
import { stamp } from "./support/inbox";
import { data, frameOf, launcher, messages, shopSite } from "./support/messenger";

// The messenger's replies beyond text, on a customer's site (another origin): quick replies (to the webhook, with
// their meta_data), images both ways, and the docs' screenshots.
const shop = shopSite();
const { start, reply } = shop;

/** A webhook receiver on 127.0.0.1 that answers 200 and keeps the parsed bodies. */
async function startReceiver() {
  const received: { type: string; data: Record<string, unknown> }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as (typeof received)[number]);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

test("a quick reply clicked in the frame reaches the webhook with its meta_data; the choice stays shown", async ({
  page,
}) => {
  const e2e = readState();
  const receiver = await startReceiver();
  const hook = await data<{ id: number }>(
    await shop.api.post(`/api/v2/apps/${e2e.admin.appId}/webhooks`, {
      data: { url: receiver.url, events: ["conversation.user_replied"] },
    }),
  );
  try {
    const id = await start(page, `Can I change my order? ${stamp()}`);
    const buttons = [
      { type: "quick_reply", body: "Yes", meta_data: { k: "v" } },
      { type: "quick_reply", body: "No", meta_data: { k: "w" } },
    ];
    await data(await reply(id, { body: "Shall we cancel it?", actions: JSON.stringify(buttons) }));
    const group = frameOf(page).getByRole("group", { name: "Quick replies" });
    await group.getByRole("button", { name: "Yes" }).click();
    // The choice stays: only "Yes", pressed and disabled; "No" is gone.
    await expect(group.getByRole("button", { name: "Yes" })).toHaveAttribute("aria-pressed", "true");
    await expect(group.getByRole("button", { name: "Yes" })).toBeDisabled();
    await expect(group.getByRole("button", { name: "No" })).toHaveCount(0);
    await expect
      .poll(() =>
        receiver.received
          .filter((r) => r.type === "conversation.user_replied" && r.data.conversation === id)
          .filter((r) => r.data.body === "Yes")
          .map((r) => r.data.meta_data),
      )
      .toEqual([{ k: "v" }]);
    // After a reload, the same.
    await page.reload();
    await launcher(page).click();
    await expect(group.getByRole("button", { name: "Yes" })).toHaveAttribute("aria-pressed", "true");
    await expect(group.getByRole("button", { name: "No" })).toHaveCount(0);
  } finally {
    await shop.api.delete(`/api/v2/apps/${e2e.admin.appId}/webhooks/${hook.id}`);
    await receiver.close();
  }
});

// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

test("images both ways: the visitor attaches a PNG, the operator answers with one, shown inline", async ({
  page,
}) => {
  const id = await start(page, `Look at this ${stamp()}`);
  const uploaded = page.waitForResponse(
    (r) => r.url().endsWith(`/api/v2/messenger/conversations/${id}/reply`) && r.request().method() === "POST",
  );
  await frameOf(page)
    .locator('input[type="file"]')
    .setInputFiles({ name: "screen.png", mimeType: "image/png", buffer: PNG });
  expect((await uploaded).status()).toBe(200);
  await expect(messages(page).locator('img[alt="screen.png"]')).toBeVisible();
  const parts = await data<{ attachments?: { name?: string; file_name?: string; type?: string }[] }[]>(
    await shop.api.get(`/api/v2/conversations/${id}/parts`),
  );
  const files = parts.flatMap((p) => p.attachments ?? []);
  expect(JSON.stringify(files)).toContain("screen.png");

  const res = await shop.api.post(`/api/v2/conversations/${id}/reply`, {
    multipart: {
      body: "Here is ours",
      attachment: { name: "answer.png", mimeType: "image/png", buffer: PNG },
    },
  });
  await data(res);
  const img = messages(page).locator('img[alt="answer.png"]');
  await expect(img).toBeVisible();
  // The image loads (the frame may read the attachment's URL from another origin than the host page).
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(1);
});

// E2E_SCREENSHOTS=docs/screenshots saves the messenger's pictures for the docs (the viewport: 1280×800).
async function shot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

test("screenshots: closed, open, a thread, and Settings → Messenger", async ({ page, admin, context }) => {
  // Two pages (the panel's login and the site), each loaded twice.
  test.setTimeout(60_000);
  // An operator in the panel first: the messenger shows the team online, not the offline form.
  const panel = await context.newPage();
  await logInThroughForm(panel, admin);
  await expect(panel).toHaveURL(/\/inbox$/);
  await page.goto(shop.url);
  await expect(launcher(page)).toBeVisible();
  await shot(page, "messenger-closed");
  await launcher(page).click();
  await expect(frameOf(page).getByRole("button", { name: "New conversation" })).toBeVisible();
  await shot(page, "messenger-open");
  const id = await start(page, "Hi! Do you ship to Canada?");
  await data(
    await reply(id, { body: "Hello! Yes, we ship to Canada: delivery takes 3 to 5 business days." }),
  );
  await expect(messages(page).getByText("we ship to Canada")).toBeVisible();
  await expect(frameOf(page).locator(".part.theirs .author")).toBeVisible();
  await shot(page, "messenger-thread");

  await panel.goto("/settings#messenger");
  await expect(panel.getByRole("tab", { name: "Messenger" })).toHaveAttribute("aria-selected", "true");
  await expect(panel.getByRole("heading", { name: "Install" })).toBeVisible();
  await shot(panel, "settings-messenger");
});
