import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { listening, openConversation, stamp, startVisitor, twoAdmins } from "./support/inbox";

/** Mentions: one operator's note names another, whose bell counts it live; opening it goes to the conversation. */

test.describe.configure({ mode: "serial" });

let ops: Awaited<ReturnType<typeof twoAdmins>> | undefined;
let a: Page;
let b: Page;
let api: APIRequestContext;

test.beforeAll(async ({ browser, playwright }) => {
  // Two logins on a server that may have just started (the first pages it serves are slow).
  test.setTimeout(90_000);
  ops = await twoAdmins(browser, playwright);
  ({ api, a, b } = ops);
});

test.afterAll(() => ops?.close());

const item = (page: Page, text: string) => page.getByTestId("notification-item").filter({ hasText: text });

test("an @mention in a note reaches the other operator live; opening it shows the conversation and reads it", async () => {
  test.setTimeout(90_000);
  const e2e = ops!.e2e;
  await listening(api, a, b);
  const v = await startVisitor(api, `Refund please ${stamp()}`);
  await expect(a.getByTestId("conversation-row").first()).toBeVisible();
  await openConversation(a, v.conversation);
  await a.getByRole("radio", { name: "Note" }).click();
  const text = `@${e2e.admin2.name} can you take this? ${stamp()}`;
  await a.getByTestId("composer-input").fill(text);
  await a.getByTestId("composer-input").press("Enter");
  await expect(a.getByRole("list", { name: "Messages" }).getByText(text)).toBeVisible();

  // B never reloads: the count and the list come over the socket.
  const bell = b.getByTestId("notification-bell");
  await expect(b.getByTestId("notification-count")).toBeVisible();
  await expect(bell).toHaveAttribute("aria-label", /Notifications, \d+ unread/);
  await bell.click();
  const mine = item(b, text);
  await expect(mine).toContainText(`${e2e.admin.name} mentioned you`);
  await expect(mine).toHaveAttribute("data-unread", "true");
  // Counted once the mention is in (earlier specs of this worker may have left B other unread ones).
  const before = Number(await b.getByTestId("notification-count").textContent());
  // The author is not told of their own note.
  await a.getByTestId("notification-bell").click();
  await expect(item(a, text)).toHaveCount(0);
  await a.keyboard.press("Escape");

  await mine.click();
  await expect(b).toHaveURL(new RegExp(`[?&]c=${v.conversation}(&|$)`));
  await expect(b.getByRole("list", { name: "Messages" }).getByText(text)).toBeVisible();
  if (before > 1) await expect(b.getByTestId("notification-count")).toHaveText(String(before - 1));
  else await expect(b.getByTestId("notification-count")).toHaveCount(0);
  await bell.click();
  await expect(item(b, text)).toHaveAttribute("data-unread", "false");

  // Read is stored: after a reload it stays read.
  await b.reload();
  await b.getByTestId("notification-bell").click();
  await expect(item(b, text)).toHaveAttribute("data-unread", "false");
});
