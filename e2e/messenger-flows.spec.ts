import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { APIRequestContext, Page } from "@playwright/test";
import { io } from "socket.io-client";
import { test, expect, logInThroughForm } from "./support/fixtures";
import { readState } from "./support/state";
import { hostPage, startHostSite, type HostSite } from "../lib/testing/host-page";

// The messenger's flows as a visitor lives them on a customer's site (another origin), each checked against what
// the operators' API sees or does: tabs in sync, offline and back, typing, notes, quick replies, images.
let site: HostSite;
let api: APIRequestContext;

const stamp = () => `${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;

async function data<T>(res: Awaited<ReturnType<APIRequestContext["get"]>>): Promise<T> {
  const body = (await res.json()) as { data: T };
  expect(res.status(), JSON.stringify(body)).toBe(200);
  return body.data;
}

test.beforeAll(async ({ playwright }) => {
  const e2e = readState();
  api = await playwright.request.newContext({
    baseURL: e2e.baseURL,
    extraHTTPHeaders: { Authorization: `Token ${e2e.token}` },
  });
  const settings = await data<{ public_key: string }>(
    await api.get(`/api/v2/apps/${e2e.admin.appId}/messenger`),
  );
  site = await startHostSite({ "/shop": hostPage({ origin: e2e.baseURL, key: settings.public_key }) });
});
test.afterAll(async () => {
  await site?.close();
  await api?.dispose();
});

const frameOf = (page: Page) => page.frameLocator('iframe[title="Messenger"]');
const messages = (page: Page) => frameOf(page).getByRole("list", { name: "Messages" });
const launcher = (page: Page) => page.getByRole("button", { name: "Open messages", exact: true });

/** Resolves when the frame's socket has subscribed to "messenger" (its ack): from then on, events arrive live. */
function subscribed(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on("websocket", (ws) => {
      if (!ws.url().includes("/socket.io/")) return;
      ws.on("framereceived", (f) => {
        if (typeof f.payload === "string" && f.payload.includes('"subscribed":["messenger"')) resolve();
      });
    });
  });
}

/** The host page with the messenger open, its socket subscribed. */
async function open(page: Page) {
  const live = subscribed(page);
  await page.goto(`${site.url}/shop`);
  await launcher(page).click();
  await expect(page.locator('iframe[title="Messenger"]')).toBeVisible();
  await live;
}

/** Starts a conversation from the frame's composer; its id, from the visitor API's answer. */
async function start(page: Page, text: string): Promise<number> {
  await open(page);
  const frame = frameOf(page);
  await frame.getByRole("button", { name: "New conversation" }).click();
  const started = page.waitForResponse(
    (r) => r.url().endsWith("/api/v2/messenger/conversations") && r.request().method() === "POST",
  );
  await frame.getByRole("textbox", { name: "Message" }).fill(text);
  await frame.getByRole("textbox", { name: "Message" }).press("Enter");
  const id = ((await (await started).json()) as { data: { conversation: { id: number } } }).data.conversation
    .id;
  await expect(messages(page).getByText(text)).toBeVisible();
  return id;
}

const reply = (id: number, fields: Record<string, unknown>) =>
  api.post(`/api/v2/conversations/${id}/reply`, { data: fields });

test("two tabs of one visitor stay in sync: a message sent in one appears live in the other", async ({
  page,
  context,
}) => {
  const first = `From tab one ${stamp()}`;
  const id = await start(page, first);
  const tab2 = await context.newPage();
  await open(tab2);
  // The second tab is the same visitor: the conversation is in its list.
  await frameOf(tab2).getByRole("button", { name: first }).click();
  await expect(messages(tab2).getByText(first)).toBeVisible();

  const second = `Second from tab one ${stamp()}`;
  await frameOf(page).getByRole("textbox", { name: "Message" }).fill(second);
  await frameOf(page).getByRole("textbox", { name: "Message" }).press("Enter");
  await expect(messages(tab2).getByText(second)).toHaveCount(1);
  await expect(messages(page).getByText(second)).toHaveCount(1);
  const parts = await data<{ body: string }[]>(await api.get(`/api/v2/conversations/${id}/parts`));
  expect(parts.filter((p) => p.body === second)).toHaveLength(1);
});

test("offline and back: two replies sent meanwhile appear exactly once each", async ({ page, context }) => {
  const id = await start(page, `Going into a tunnel ${stamp()}`);
  await context.setOffline(true);
  const a = `While you were away (1) ${stamp()}`;
  const b = `While you were away (2) ${stamp()}`;
  await data(await reply(id, { body: a }));
  await data(await reply(id, { body: b }));
  // Really offline: nothing arrives meanwhile (the socket is cut, not just new requests).
  await page.waitForTimeout(1000);
  await expect(messages(page).getByText(a)).toHaveCount(0);
  await context.setOffline(false);
  for (const text of [a, b]) {
    await expect(messages(page).getByText(text)).toBeVisible({ timeout: 20_000 });
  }
  // Once each: the socket's replay and any reload of the thread are the same parts.
  await page.waitForTimeout(1000);
  await expect(messages(page).getByText(a)).toHaveCount(1);
  await expect(messages(page).getByText(b)).toHaveCount(1);
  await expect(messages(page).locator(".part.theirs .bubble")).toHaveCount(2);
});

test("a note never reaches the visitor; the reply after it does", async ({ page }) => {
  const id = await start(page, `Anyone there? ${stamp()}`);
  const note = `Internal: VIP customer ${stamp()}`;
  const answer = `Yes, we are here ${stamp()}`;
  await data(await reply(id, { body: note, type: "note" }));
  await data(await reply(id, { body: answer }));
  await expect(messages(page).getByText(answer)).toBeVisible();
  await expect(frameOf(page).getByText(note)).toHaveCount(0);
  // Nor after a reload (the parts endpoint).
  await page.reload();
  await launcher(page).click();
  await expect(messages(page).getByText(answer)).toBeVisible();
  await expect(frameOf(page).getByText(note)).toHaveCount(0);
});

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
    await api.post(`/api/v2/apps/${e2e.admin.appId}/webhooks`, {
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
    await api.delete(`/api/v2/apps/${e2e.admin.appId}/webhooks/${hook.id}`);
    await receiver.close();
  }
});

test("typing both ways: the operator's shows in the frame, the visitor's reaches the operators' socket", async ({
  page,
}) => {
  const e2e = readState();
  const id = await start(page, `Let me explain ${stamp()}`);
  await data(await api.post(`/api/v2/conversations/${id}/settyping`, { data: { body: "Hmm, let me" } }));
  await expect(frameOf(page).locator(".typing")).toContainText("is typing…");
  // The operator's reply ends it.
  await data(await reply(id, { body: `Done ${stamp()}` }));
  await expect(frameOf(page).locator(".typing")).toHaveText("");

  const socket = io(e2e.baseURL, {
    transports: ["websocket"],
    auth: { token: e2e.token },
    reconnection: false,
  });
  try {
    const seen: { conversation?: number; body?: string }[] = [];
    const channel = `conversation_typing.${e2e.admin.appId}`;
    socket.on("message", (m: { channel?: string; message?: { conversation?: number; body?: string } }) => {
      if (m.channel === channel && m.message) seen.push(m.message);
    });
    const ack = await new Promise<{ subscribed?: string[] }>((resolve) =>
      socket.emit("subscribe", { channels: [`conversation_typing.${e2e.admin.appId}`] }, resolve),
    );
    expect(ack.subscribed).toEqual([`conversation_typing.${e2e.admin.appId}`]);
    await frameOf(page).getByRole("textbox", { name: "Message" }).pressSequentially("A long story");
    // Throttled (leading edge): the operators see the text as it was at the first keystroke.
    await expect
      .poll(() => seen.filter((m) => m.conversation === id).map((m) => m.body))
      .toContainEqual(expect.stringMatching(/^A/));
  } finally {
    socket.close();
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
    await api.get(`/api/v2/conversations/${id}/parts`),
  );
  const files = parts.flatMap((p) => p.attachments ?? []);
  expect(JSON.stringify(files)).toContain("screen.png");

  const res = await api.post(`/api/v2/conversations/${id}/reply`, {
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
  // An operator in the panel first: the messenger shows the team online, not the offline form.
  const panel = await context.newPage();
  await logInThroughForm(panel, admin);
  await expect(panel).toHaveURL(/\/inbox$/);
  await page.goto(`${site.url}/shop`);
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
