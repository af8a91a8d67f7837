import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { test, expect } from "./support/fixtures";
import { listening, openInbox, row, stamp } from "./support/inbox";
import {
  data,
  frameOf,
  launcher,
  messages,
  messengerSite,
  openMessenger,
  type MessengerSite,
} from "./support/messenger";
import { inControl } from "../lib/messages/consumer";
import type { Message, MessageStats } from "../lib/messages/schemas";
import type { Boot } from "../lib/messenger/visitor-schemas";
import { hostPage } from "../lib/testing/host-page";

// Proactive messages as a visitor gets them on a customer's site (another origin): a chat message previewed by the
// launcher and answered in the messenger, the conversation it starts in the operator's Inbox, the statistics and
// the goal; a visitor of the control group who gets nothing; a pop-up's email field and its ×. Each message
// triggers on a page of its own, and each visitor is new, so no message waits for another's interval.
let s: MessengerSite | undefined;
const made: Message[] = [];

test.beforeAll(async ({ playwright }) => {
  s = await messengerSite(playwright, (key, e2e) =>
    Object.fromEntries(
      ["/pricing", "/offers", "/signup"].map((path) => [path, hostPage({ origin: e2e.baseURL, key })]),
    ),
  );
});
test.afterAll(async () => {
  // Archived: a later spec's site on the same port triggers none of them.
  for (const m of made)
    await s?.api.post(`/api/apps/${m.app}/messages/${m.id}`, { data: { status: "archived" } });
  await s?.close();
});

function site(): MessengerSite {
  if (!s) throw new Error("the site starts in beforeAll");
  return s;
}
const appId = () => site().e2e.admin.appId!;

async function makeMessage(fields: Record<string, unknown>): Promise<Message> {
  const m = await data<Message>(
    await site().api.post(`/api/apps/${appId()}/messages`, { data: { name: `E2E ${stamp()}`, ...fields } }),
  );
  made.push(m);
  return m;
}

const statsOf = async (m: Message) =>
  data<MessageStats>(await site().api.get(`/api/apps/${appId()}/messages/${m.id}/stats`));

async function operatorId(): Promise<number> {
  const admins = await data<{ id: number; email: string }[]>(
    await site().api.get(`/api/apps/${appId()}/admins`),
  );
  return admins.find((a) => a.email === site().e2e.admin.email)!.id;
}

/** The visitor the frame boots on this page (its answer to POST /boot). */
const bootOf = (page: Page) =>
  page
    .waitForResponse((r) => r.url().endsWith("/api/v2/messenger/boot") && r.request().method() === "POST")
    .then(async (r) => ((await r.json()) as { data: Boot }).data.visitor);

/** The types of the visitor socket's "messenger" messages, in arrival order. */
function socketTypes(page: Page): string[] {
  const types: string[] = [];
  page.on("websocket", (ws) => {
    if (!ws.url().includes("/socket.io/")) return;
    ws.on("framereceived", (f) => {
      if (typeof f.payload !== "string" || !f.payload.startsWith("42")) return;
      const [name, msg] = JSON.parse(f.payload.slice(2)) as [string, { type?: string }];
      if (name === "message" && typeof msg?.type === "string") types.push(msg.type);
    });
  });
  return types;
}

/** A device ID as the frame makes them (messenger/frame/api.ts): 18 random bytes, base64url. */
const newDevice = () => randomBytes(18).toString("base64url");

test("a chat message: previewed while closed, answered in the messenger, the conversation live in the Inbox; read, replied and the goal counted", async ({
  page,
  browser,
}) => {
  // A message's timeout, two browsers and the statistics: minutes on a loaded machine.
  test.setTimeout(240_000);
  const sender = site().e2e.admin.name;
  const body = `Questions about our plans? ${stamp()}`;
  const m = await makeMessage({
    kind: "chat",
    content: { sender: await operatorId(), body },
    trigger: { event: "$page_view", url: `${site().site.url}/pricing*` },
    timeout: 5,
    goal: { event: "paid", within_hours: 1 },
  });
  const op = await openInbox(browser, site().e2e.admin);
  try {
    await listening(site().api, op.page);
    const visitor = bootOf(page);
    await page.goto(`${site().site.url}/pricing?plan=pro`);
    const { id: userId } = await visitor;

    // Sent after its timeout: the closed messenger's launcher previews it and counts it.
    const preview = page.getByRole("button", { name: `${sender}: ${body}. Open the message` });
    await expect(preview).toBeVisible({ timeout: 60_000 });
    await expect(launcher(page, "Open messages, 1 unread")).toBeVisible();

    // The preview opens the messenger on it: the operator's message and a composer; seen, so read.
    const read = page.waitForRequest((r) => /\/api\/v2\/messenger\/messages\/\d+\/read$/.test(r.url()));
    await preview.click();
    await expect(messages(page).getByText(body)).toBeVisible();
    await expect(messages(page).getByText(sender)).toBeVisible();
    await read;
    await expect(preview).toBeHidden();

    // The answer starts a conversation, which the messenger opens like any other.
    const answer = `Is there a yearly plan? ${stamp()}`;
    const replied = page.waitForResponse((r) => /\/api\/v2\/messenger\/messages\/\d+\/reply$/.test(r.url()));
    const box = frameOf(page).getByRole("textbox", { name: "Message" });
    await box.fill(answer);
    await box.press("Enter");
    const started = (await (await replied).json()) as { data: { conversation: { id: number } } };
    const id = started.data.conversation.id;
    await expect(messages(page).locator(".part.theirs .bubble")).toHaveText([body]);
    await expect(messages(page).locator(".part.mine .bubble")).toHaveText([answer]);

    // The operator sees it arrive, live.
    await expect(row(op.page, String(id))).toBeVisible();
    await expect(row(op.page, String(id))).toContainText(answer);
    // Everything in it seen: no count left on the launcher.
    await frameOf(page).getByRole("button", { name: "Close messages" }).click();
    await expect(launcher(page)).toBeVisible();

    const conversation = await data<{ type: string; message: unknown }>(
      await site().api.get(`/api/conversations/${id}`),
    );
    expect(conversation).toMatchObject({ type: "popup_chat", message: m.id });
    await expect
      .poll(async () => (await statsOf(m)).sent)
      .toMatchObject({ sent: 1, read: 1, replied: 1, goal: 0 });

    // The site's backend tracks the goal for that visitor.
    await data(await site().api.post(`/api/users/${userId}/events`, { data: { event: "paid" } }));
    await expect.poll(async () => (await statsOf(m)).sent.goal).toBe(1);
  } finally {
    await op.context.close();
  }
});

test("a visitor in the control group gets nothing, and the statistics count it held back", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const m = await makeMessage({
    kind: "chat",
    content: { sender: await operatorId(), body: `Our offers this week ${stamp()}` },
    trigger: { event: "$page_view", url: `${site().site.url}/offers*` },
    timeout: 5,
    control_percent: 50,
  });
  // Visitors booted until one falls in the control group, by the server's own rule (message and user hashed).
  let device: string | undefined;
  let userId: unknown;
  for (let i = 0; i < 40 && !device; i++) {
    const d = newDevice();
    const res = await fetch(`${site().e2e.baseURL}/api/v2/messenger/boot`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: site().key, device_id: d }),
    });
    expect(res.status).toBe(200);
    const { visitor } = ((await res.json()) as { data: Boot }).data;
    if (inControl(BigInt(m.id), BigInt(visitor.id), m.control_percent)) [device, userId] = [d, visitor.id];
  }
  expect(device, "no visitor fell in the control group").toBeDefined();

  // That visitor's browser: the frame finds the device in its storage and boots as that user.
  const context = await browser.newContext();
  try {
    await context.addInitScript(
      ({ origin, name, value }) => {
        if (location.origin === origin) localStorage.setItem(name, value);
      },
      { origin: site().e2e.baseURL, name: `relay:${site().key}:device`, value: device! },
    );
    const page = await context.newPage();
    const types = socketTypes(page);
    const visitor = bootOf(page);
    await openMessenger(page, `${site().site.url}/offers`);
    expect((await visitor).id).toBe(userId);

    // Held back when its timeout ends; a margin after it for anything on its way, and nothing came.
    await expect.poll(async () => (await statsOf(m)).control.sent, { timeout: 60_000 }).toBe(1);
    await page.waitForTimeout(3_000);
    expect(types).not.toContain("messenger_message");
    await expect(frameOf(page).locator(".card.message")).toHaveCount(0);
    await expect(launcher(page, "Close messages")).toBeVisible();
    expect((await statsOf(m)).sent.sent).toBe(0);
  } finally {
    await context.close();
  }
});

test("a pop-up: its email field sets the visitor's $email; its × only hides it", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const title = `Ten percent off ${stamp()}`;
  const m = await makeMessage({
    kind: "popup",
    content: { title, body: "Leave your email and we send you the code.", email_field: true },
    trigger: { event: "$page_view", url: `${site().site.url}/signup*` },
    timeout: 1,
  });

  // With the messenger open, it comes as a card on top of home; the email is a click.
  const visitor = bootOf(page);
  await openMessenger(page, `${site().site.url}/signup`);
  const { id: userId } = await visitor;
  const card = frameOf(page).getByRole("region", { name: title });
  await expect(card).toBeVisible({ timeout: 60_000 });
  const email = `ann-${stamp()}@example.test`;
  await card.getByLabel("Your email").fill(email);
  await card.getByRole("button", { name: "Send" }).click();
  await expect(card.getByText("Thanks! We will be in touch.")).toBeVisible();
  await expect
    .poll(async () => {
      const user = await data<{ props: Record<string, unknown> }>(
        await site().api.get(`/api/users/${userId}`),
      );
      return user.props.$email;
    })
    .toBe(email);

  // Another visitor closes its preview: hidden in the messenger too, and no click counted.
  const context = await browser.newContext();
  try {
    const other = await context.newPage();
    const clicks: string[] = [];
    other.on("request", (r) => r.url().endsWith("/click") && clicks.push(r.url()));
    await other.goto(`${site().site.url}/signup`);
    const preview = other.getByRole("button", {
      name: `${title}: Leave your email and we send you the code.`,
    });
    await expect(preview).toBeVisible({ timeout: 60_000 });
    await other.getByRole("button", { name: "Dismiss message" }).click();
    await expect(preview).toBeHidden();
    await expect(launcher(other)).toBeFocused();
    await launcher(other).click();
    await expect(frameOf(other).getByRole("button", { name: "New conversation" })).toBeVisible();
    await expect(frameOf(other).getByRole("region", { name: title })).toHaveCount(0);
    expect(clicks).toEqual([]);
    await expect
      .poll(async () => (await statsOf(m)).sent)
      .toMatchObject({ sent: 2, read: 1, clicked: 1, replied: 0 });
  } finally {
    await context.close();
  }
});
