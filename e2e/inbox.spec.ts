import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import {
  listening,
  openConversation,
  post as postWith,
  row,
  startVisitor as startWith,
  twoAdmins,
  type Visitor,
} from "./support/inbox";

// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const XSS = `<img src=x onerror="window.__xss=1"><script>window.__xss=1</script>`;

test.describe.configure({ mode: "serial" });

let ops: Awaited<ReturnType<typeof twoAdmins>> | undefined;
let a: Page;
let b: Page;
let api: APIRequestContext;
let visitor: Visitor;
let nameA: string;
let nameB: string;

const post = (path: string, data: Record<string, unknown>) => postWith(api, path, data);
const startVisitor = (body: string) => startWith(api, body);
const count = async (page: Page, tab: string) => Number(await page.getByTestId(`count-${tab}`).innerText());

test.beforeAll(async ({ browser, playwright }) => {
  ops = await twoAdmins(browser, playwright);
  ({ api, a, b } = ops);
  nameA = ops.e2e.admin.name;
  nameB = ops.e2e.admin2.name;
  await listening(api, a, b);
});

test.afterAll(() => ops?.close());

test("a visitor's message appears live for both operators; replies and notes reach the other", async () => {
  const text = `Hello, I need help ${Date.now()}`;
  visitor = await startVisitor(text);
  for (const page of [a, b]) {
    await expect(row(page, visitor.conversation)).toBeVisible();
    await expect(row(page, visitor.conversation).getByTestId("row-preview")).toHaveText(text);
  }
  await openConversation(a, visitor.conversation);
  await openConversation(b, visitor.conversation);
  await expect(a.getByTestId("part-user").filter({ hasText: text })).toBeVisible();

  const reply = `We are on it ${Date.now()}`;
  await a.getByTestId("composer-input").fill(reply);
  await a.getByTestId("composer-input").press("Enter");
  await expect(b.getByTestId("part-admin").filter({ hasText: reply })).toBeVisible();
  // Optimistic part and server part are one message.
  await expect(a.getByTestId("part-admin").filter({ hasText: reply })).toHaveCount(1);
  await expect(a.locator('[data-pending="true"]')).toHaveCount(0);
  await expect(a.getByTestId("part-admin").filter({ hasText: reply })).toHaveCount(1);
  // The reply took the unassigned conversation for A (the app's assign_on_reply), live for B.
  await expect(row(b, visitor.conversation).getByTestId("row-assignee")).toHaveText(nameA);

  // Shift+Enter breaks the line instead of sending.
  await a.getByTestId("composer-input").fill("first line");
  await a.getByTestId("composer-input").press("Shift+Enter");
  await a.getByTestId("composer-input").pressSequentially("second line");
  await expect(a.getByTestId("composer-input")).toHaveValue("first line\nsecond line");
  await a.getByTestId("composer-input").fill("");

  const note = `Internal: check the invoice ${Date.now()}`;
  await a.getByRole("radio", { name: "Note" }).click();
  await a.getByTestId("composer-input").fill(note);
  await a.getByTestId("composer-input").press("Enter");
  const bNote = b.getByTestId("part-note").filter({ hasText: note });
  await expect(bNote).toBeVisible();
  await expect(bNote.getByTestId("note-label")).toHaveText(/visible to operators only/);
  await a.getByRole("radio", { name: "Reply" }).click();

  // A new visitor message moves the row to the top of the other operator's list.
  const other = await startVisitor(`Another question ${Date.now()}`);
  await expect(b.getByTestId("conversation-row").first()).toHaveAttribute(
    "data-conversation-id",
    other.conversation,
  );
  await visitor.say(`Are you there? ${Date.now()}`);
  await expect(b.getByTestId("conversation-row").first()).toHaveAttribute(
    "data-conversation-id",
    visitor.conversation,
  );
});

test("assign, close, reopen, snooze and tags show in both lists and counts", async () => {
  test.slow(); // a dozen round trips, each seen by both operators
  const id = visitor.conversation;
  // A's reply assigned it to A: unassigned again, so that "Assign to me" has something to do.
  await post(`/api/conversations/${id}/assign`, { admin: "" });
  await expect(row(b, id).getByTestId("row-assignee")).toHaveText("Unassigned");
  await openConversation(a, id);

  await a.getByRole("button", { name: "Assign to me" }).click();
  await expect(row(b, id).getByTestId("row-assignee")).toHaveText(nameA);
  await expect(
    b.getByTestId("part-system").filter({ hasText: "assigned the conversation to" }).last(),
  ).toBeVisible();

  const open = await count(b, "open");
  const closed = await count(b, "closed");
  await a.getByRole("button", { name: "Close", exact: true }).click();
  await expect(row(b, id)).toHaveCount(0);
  await expect(b.getByTestId("count-open")).toHaveText(String(open - 1));
  await expect(b.getByTestId("count-closed")).toHaveText(String(closed + 1));
  await b.getByTestId("tab-closed").click();
  await expect(row(b, id)).toBeVisible();
  await expect(b).toHaveURL(/tab=closed/);

  await a.getByRole("button", { name: "Reopen" }).click();
  await expect(row(b, id)).toHaveCount(0);
  await expect(b.getByTestId("count-closed")).toHaveText(String(closed));
  await b.getByTestId("tab-open").click();
  await expect(row(b, id)).toBeVisible();
  await expect(b.getByTestId("count-open")).toHaveText(String(open));

  const delayed = await count(b, "delayed");
  // Snooze and tags sit behind the header's "⋯" (one row at 1280 px).
  await a.getByRole("button", { name: /^Snooze and tags/ }).click();
  await a.getByLabel("Snooze", { exact: true }).selectOption({ label: "1 hour" });
  await expect(row(b, id)).toHaveCount(0);
  await expect(b.getByTestId("count-delayed")).toHaveText(String(delayed + 1));
  await expect(b.getByTestId("count-open")).toHaveText(String(open - 1));
  await b.getByTestId("tab-delayed").click();
  await expect(row(b, id)).toBeVisible();
  await a.getByRole("button", { name: /^Snooze and tags/ }).click();
  await a.getByRole("button", { name: "Wake now" }).click();
  await expect(row(b, id)).toHaveCount(0);
  await b.getByTestId("tab-open").click();
  await expect(row(b, id)).toBeVisible();
  await expect(b.getByTestId("count-delayed")).toHaveText(String(delayed));

  await a.getByLabel("Add a tag").fill("vip");
  await a.getByLabel("Add a tag").press("Enter");
  await expect(row(b, id)).toContainText("vip");
  await b.getByLabel("Filter by tag").fill("vip");
  await b.getByLabel("Filter by tag").press("Enter");
  await expect(b).toHaveURL(/tag=vip/);
  await expect(row(b, id)).toBeVisible();
  await a.getByRole("button", { name: "Remove tag vip" }).click();
  await expect(row(b, id)).toHaveCount(0);
  await b.getByLabel("Filter by tag").fill("");
  await b.getByLabel("Filter by tag").press("Enter");
  await expect(row(b, id)).toBeVisible();
  await expect(row(b, id)).not.toContainText("vip");
});

test("the visitor's typing shows, then expires", async () => {
  await openConversation(a, visitor.conversation);
  await visitor.typing();
  await expect(a.getByTestId("typing-indicator")).toHaveText(/is typing/);
  await expect(a.getByTestId("typing-indicator")).toHaveText("", { timeout: 15_000 });
});

test("an image attachment uploads and shows to both operators", async () => {
  await openConversation(a, visitor.conversation);
  await openConversation(b, visitor.conversation);
  await a
    .getByTestId("composer-file")
    .setInputFiles({ name: "pixel.png", mimeType: "image/png", buffer: PNG });
  await a.getByTestId("composer-input").fill("Here is the screenshot");
  await a.getByRole("button", { name: "Send" }).click();
  for (const page of [a, b]) {
    const img = page.getByTestId("attachment-image").last();
    await expect(img).toBeVisible();
    await expect(img).toHaveAttribute("alt", "pixel.png");
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(1);
  }
});

test("a quick reply sent by one operator and clicked by the visitor shows the choice", async () => {
  await openConversation(a, visitor.conversation);
  await openConversation(b, visitor.conversation);
  await a.getByRole("button", { name: "Add quick replies" }).click();
  await a.getByLabel("Button 1", { exact: true }).fill("Yes please");
  await a.getByRole("button", { name: "Add a button" }).click();
  await a.getByLabel("Button 2", { exact: true }).fill("No thanks");
  await a.getByTestId("composer-input").fill("Shall we call you?");
  await a.getByTestId("composer-input").press("Enter");
  await expect(b.getByTestId("part-admin").filter({ hasText: "Shall we call you?" })).toBeVisible();

  const res = await api.get(`/api/conversations/${visitor.conversation}/parts`);
  const parts = ((await res.json()) as { data: { id: number; actions: unknown[] | null }[] }).data;
  const withButtons = parts.find((p) => p.actions?.length === 2);
  expect(withButtons).toBeDefined();
  await post(`/api/conversations/${visitor.conversation}/quickreply`, { part: withButtons!.id, action: 1 });
  await expect(b.getByTestId("quick-reply-clicked")).toHaveText(/No thanks/);
  await expect(a.getByTestId("quick-reply-clicked")).toHaveText(/No thanks/);
});

test("keyboard shortcuts: next/previous, help, assign to me, close, reply and note", async () => {
  await a.goto("/inbox");
  await expect(a.getByTestId("conversation-row").first()).toBeVisible();
  await a.locator("body").press("j");
  await expect(a).toHaveURL(/[?&]c=\d+/);
  const first = await a.getByTestId("conversation-row").nth(0).getAttribute("data-conversation-id");
  const second = await a.getByTestId("conversation-row").nth(1).getAttribute("data-conversation-id");
  await expect(a).toHaveURL(new RegExp(`c=${first}`));
  await a.keyboard.press("j");
  await expect(a).toHaveURL(new RegExp(`c=${second}`));
  await a.keyboard.press("k");
  await expect(a).toHaveURL(new RegExp(`c=${first}`));

  await a.keyboard.press("?");
  await expect(a.getByTestId("shortcuts-overlay")).toBeVisible();
  await expect(a.getByTestId("shortcuts-overlay")).toContainText("Assign to me");
  await expect(a.getByTestId("shortcuts-overlay")).toContainText("Select the focused conversation");
  await a.keyboard.press("Escape");
  await expect(a.getByTestId("shortcuts-overlay")).toBeHidden();

  // Unassigned first (by the other operator), so "a" has something to do.
  await b.goto(`/inbox?c=${first}`);
  await b.getByLabel("Assignee", { exact: true }).selectOption({ label: nameB });
  await expect(row(a, first!).getByTestId("row-assignee")).toHaveText(nameB);
  await a.keyboard.press("a");
  await expect(row(a, first!).getByTestId("row-assignee")).toHaveText("You");

  await a.keyboard.press("r");
  await expect(a.getByTestId("composer-input")).toBeFocused();
  // Shortcuts do not fire while typing.
  await a.keyboard.type("jk");
  await expect(a.getByTestId("composer-input")).toHaveValue("jk");
  await expect(a).toHaveURL(new RegExp(`c=${first}`));
  await a.keyboard.press("Escape");
  await a.keyboard.press("n");
  await expect(a.getByRole("radio", { name: "Note" })).toHaveAttribute("aria-checked", "true");
  await expect(a.getByTestId("composer-input")).toBeFocused();
  await a.keyboard.press("Escape");

  await a.keyboard.press("e");
  await expect(row(a, first!)).toHaveCount(0);
  await expect(a.getByRole("button", { name: "Reopen" })).toBeVisible();
});

test("markup in messages and attachment names is shown as text and never runs", async () => {
  const v = await startVisitor(XSS);
  const name = `"><img src=x onerror="window.__xss=1">.txt`;
  const res = await api.post(`/api/conversations/${v.conversation}/reply`, {
    multipart: {
      from_user: "default_user",
      attachment_file_name: name,
      attachment: { name: "note.txt", mimeType: "text/plain", buffer: Buffer.from("plain text\n") },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  await a.goto(`/inbox?c=${v.conversation}`);
  await expect(row(a, v.conversation).getByTestId("row-preview")).toBeVisible();
  await expect(a.getByTestId("part-user").getByTestId("part-body").first()).toHaveText(XSS);
  await expect(a.getByTestId("attachment-name").filter({ hasText: "window.__xss" })).toHaveText(name);
  expect(await a.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(
    await a.locator("script:not([src])").evaluateAll((s) => s.some((x) => x.textContent?.includes("__xss"))),
  ).toBe(false);
});
