import type { Page } from "@playwright/test";
import { test, expect } from "./support/fixtures";
import { listening, openConversation, openInbox, row, stamp } from "./support/inbox";
import { frameOf, messages, shopSite } from "./support/messenger";

// Both sides in browsers: a visitor on a customer's site (another origin) and an operator
// in the panel's Inbox, side by side. Nothing goes through the operators' API: what one does in a page, the other
// sees live in theirs.
const shop = shopSite();

// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** The visitor socket's messages, in arrival order: `{type, message}` of each "messenger" event. */
function visitorFeed(page: Page): { type: string; message: Record<string, unknown> }[] {
  const feed: { type: string; message: Record<string, unknown> }[] = [];
  page.on("websocket", (ws) => {
    if (!ws.url().includes("/socket.io/")) return;
    ws.on("framereceived", (f) => {
      // socket.io's event frames: 42["message", {...}].
      if (typeof f.payload !== "string" || !f.payload.startsWith("42")) return;
      const [name, msg] = JSON.parse(f.payload.slice(2)) as [string, { type?: string; message?: unknown }];
      if (name === "message" && typeof msg?.type === "string")
        feed.push({ type: msg.type, message: (msg.message ?? {}) as Record<string, unknown> });
    });
  });
  return feed;
}

const composer = (op: Page) => op.getByTestId("composer-input");
const visitorBox = (page: Page) => frameOf(page).getByRole("textbox", { name: "Message" });

/** The operator page's typing reports, as it sends them: whether each is a note's. */
function typingSent(op: Page): boolean[] {
  const notes: boolean[] = [];
  op.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/settyping"))
      notes.push((r.postDataJSON() as { note?: boolean }).note === true);
  });
  return notes;
}

/**
 * Types `text` into the operator's composer a key at a time until the panel sends a typing report of that kind (a
 * note's or a reply's). The panel sends at most one every 3 s: this waits for that report, not for the time.
 */
async function typeUntilReported(op: Page, sent: boolean[], note: boolean, text: string) {
  const before = sent.filter((x) => x === note).length;
  let i = 0;
  await expect(async () => {
    await composer(op).pressSequentially(text[i++ % text.length]!);
    expect(sent.filter((x) => x === note).length).toBeGreaterThan(before);
  }).toPass({ intervals: [200], timeout: 20_000 });
}

test("visitor and operator live: the Inbox, typing both ways, replies, an image; a note never reaches the visitor", async ({
  page,
  browser,
  e2e,
}) => {
  // Two browsers' worth of pages and a dozen live round trips: minutes on a loaded machine.
  test.setTimeout(240_000);
  const op = await openInbox(browser, e2e.admin);
  try {
    await listening(shop.api, op.page);
    const feed = visitorFeed(page);
    const sent = typingSent(op.page);

    // The visitor writes: the conversation appears in the operator's list, then its thread, live.
    const first = `Is this in stock? ${stamp()}`;
    const id = await shop.start(page, first);
    await expect(row(op.page, String(id))).toBeVisible();
    await expect(row(op.page, String(id))).toContainText(first);
    await openConversation(op.page, String(id));
    await expect(op.page.getByTestId("part-user").filter({ hasText: first })).toBeVisible();

    // The visitor types: the operator sees it.
    await visitorBox(page).pressSequentially("Also, in blue", { delay: 30 });
    await expect(op.page.getByTestId("typing-indicator")).toHaveText(/is typing…/);

    // The operator types a reply: the visitor sees it; the reply arrives live and ends it.
    await composer(op.page).pressSequentially("Let me check", { delay: 30 });
    await expect(frameOf(page).locator(".typing")).toContainText("is typing…");
    const answer = `Yes, it is in stock ${stamp()}`;
    await composer(op.page).fill(answer);
    await composer(op.page).press("Enter");
    await expect(messages(page).getByText(answer)).toBeVisible();
    await expect(frameOf(page).locator(".typing")).toHaveText("");
    const answered = feed.findIndex((e) => e.type === "messenger_part" && JSON.stringify(e).includes(answer));
    expect(answered).toBeGreaterThanOrEqual(0);

    // A note, typed in note mode, then the next reply: each sends a typing report of its own (the note's is sent,
    // so a leaked one would be counted).
    await op.page.getByRole("radio", { name: "Note" }).click();
    const note = `Internal: check the blue ones in the back ${stamp()}`;
    await typeUntilReported(op.page, sent, true, note);
    await composer(op.page).fill(note);
    await composer(op.page).press("Enter");
    await expect(op.page.getByTestId("part-note").filter({ hasText: note })).toBeVisible();
    await op.page.getByRole("radio", { name: "Reply" }).click();
    const after = `The blue ones too ${stamp()}`;
    await typeUntilReported(op.page, sent, false, after);
    await composer(op.page).fill(after);
    await composer(op.page).press("Enter");
    await expect(messages(page).getByText(after)).toBeVisible();

    // The visitor got the reply and its typing, and nothing of the note: neither the part nor its typing.
    await expect(frameOf(page).getByText(note)).toHaveCount(0);
    expect(JSON.stringify(feed)).not.toContain(note);
    const since = feed.slice(answered + 1);
    const next = since.findIndex((e) => e.type === "messenger_part" && JSON.stringify(e).includes(after));
    expect(next).toBeGreaterThanOrEqual(0);
    expect(since.slice(0, next).filter((e) => e.type === "messenger_typing")).toHaveLength(1);

    // An image from the operator's composer, shown inline in the messenger.
    await op.page
      .getByTestId("composer-file")
      .setInputFiles({ name: "blue.png", mimeType: "image/png", buffer: PNG });
    await composer(op.page).fill(`Here it is ${stamp()}`);
    await composer(op.page).press("Enter");
    const img = messages(page).locator('img[alt="blue.png"]');
    await expect(img).toBeVisible();
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(1);
  } finally {
    await op.context.close();
  }
});

test("the visitor's typing stays shown while they type, ends with their text, and goes when they empty the composer", async ({
  page,
  browser,
  e2e,
}) => {
  test.setTimeout(180_000);
  const op = await openInbox(browser, e2e.admin);
  try {
    await listening(shop.api, op.page);
    const id = await shop.start(page, `A question ${stamp()}`);
    await openConversation(op.page, String(id));
    const bodies: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith(`/messenger/conversations/${id}/typing`))
        bodies.push((r.postDataJSON() as { body: string }).body);
    });
    const indicator = op.page.getByTestId("typing-indicator");

    // Over 3 s of continuous typing (one typing window); on the operator's side every change of the page while it
    // goes is looked at, and the indicator must say so after each.
    const text = "Ships to Canada soon?";
    const typing = visitorBox(page).pressSequentially(text, { delay: 200 });
    await expect(indicator).toHaveText(/is typing…/);
    const started = Date.now();
    await op.page.evaluate(() => {
      const gaps: string[] = [];
      const look = () => {
        const shown =
          document.querySelector('[data-testid="typing-indicator"]')?.textContent ?? "(no indicator)";
        if (!shown.includes("is typing…")) gaps.push(shown);
      };
      const watch = new MutationObserver(look);
      watch.observe(document.body, { subtree: true, childList: true, characterData: true });
      look();
      Object.assign(window, { typingWatch: { gaps, stop: () => watch.disconnect() } });
    });
    await typing;
    const gaps = await op.page.evaluate(() => {
      const { typingWatch } = window as unknown as { typingWatch: { gaps: string[]; stop: () => void } };
      typingWatch.stop();
      return typingWatch.gaps;
    });
    expect(Date.now() - started).toBeGreaterThan(3000);
    expect(gaps).toEqual([]);
    // More than the first keystroke was reported, the last report with the whole text (the window's trailing one).
    await expect.poll(() => bodies.at(-1)).toBe(text);
    expect(bodies.length).toBeGreaterThanOrEqual(2);

    // Emptied: a stop, and the indicator goes at once (it would otherwise stay up to 10 s).
    await visitorBox(page).fill("");
    await expect.poll(() => bodies.at(-1)).toBe("");
    await expect(indicator).toHaveText("", { timeout: 3000 });
  } finally {
    await op.context.close();
  }
});
