import { io } from "socket.io-client";
import type { WebSocket } from "@playwright/test";
import { test, expect } from "./support/fixtures";
import { readState } from "./support/state";
import { stamp } from "./support/inbox";
import { data, frameOf, launcher, messages, shopSite } from "./support/messenger";

// The messenger's flows as a visitor lives them on a customer's site (another origin), each checked against what
// the operators' API sees or does: tabs in sync, offline and back, notes, typing. Quick replies, images and the
// screenshots: messenger-replies.spec.ts; the same through the panel's Inbox: messenger-inbox.spec.ts.
const shop = shopSite();
const { open, start, reply } = shop;

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
  const parts = await data<{ body: string }[]>(await shop.api.get(`/api/v2/conversations/${id}/parts`));
  expect(parts.filter((p) => p.body === second)).toHaveLength(1);
});

test("offline and back: two replies sent meanwhile appear exactly once each", async ({ page, context }) => {
  const sockets: WebSocket[] = [];
  page.on("websocket", (ws) => {
    if (ws.url().includes("/socket.io/")) sockets.push(ws);
  });
  const id = await start(page, `Going into a tunnel ${stamp()}`);
  const live = sockets.filter((ws) => !ws.isClosed());
  expect(live.length).toBeGreaterThan(0);
  await context.setOffline(true);
  // Really offline: the socket is cut, not just new requests, so nothing can arrive meanwhile.
  await Promise.all(live.filter((ws) => !ws.isClosed()).map((ws) => ws.waitForEvent("close")));
  const a = `While you were away (1) ${stamp()}`;
  const b = `While you were away (2) ${stamp()}`;
  await data(await reply(id, { body: a }));
  await data(await reply(id, { body: b }));
  await expect(messages(page).getByText(a)).toHaveCount(0);
  // Back: the new socket replays what was missed, and the frame reads the thread again.
  const reread = page.waitForResponse(
    (r) => r.request().method() === "GET" && r.url().includes(`/conversations/${id}/parts`),
  );
  await context.setOffline(false);
  for (const text of [a, b]) {
    await expect(messages(page).getByText(text)).toBeVisible({ timeout: 20_000 });
  }
  await (await reread).finished();
  // Once each: the socket's replay and the reread are the same parts. A reply sent after both comes after
  // anything either had still to show.
  const c = `Welcome back ${stamp()}`;
  await data(await reply(id, { body: c }));
  await expect(messages(page).getByText(c)).toBeVisible();
  await expect(messages(page).getByText(a)).toHaveCount(1);
  await expect(messages(page).getByText(b)).toHaveCount(1);
  await expect(messages(page).locator(".part.theirs .bubble")).toHaveCount(3);
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

test("typing both ways: the operator's shows in the frame, the visitor's reaches the operators' socket", async ({
  page,
}) => {
  const e2e = readState();
  const id = await start(page, `Let me explain ${stamp()}`);
  await data(await shop.api.post(`/api/v2/conversations/${id}/settyping`, { data: { body: "Hmm, let me" } }));
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
