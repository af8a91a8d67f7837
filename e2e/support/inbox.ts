import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { expect, logInThroughForm } from "./fixtures";
import { readState, type E2EState } from "./state";

/** The Inbox tests' helpers: operators in browser contexts, a visitor driven through the API with the app's token. */

export interface Visitor {
  conversation: string;
  /** The visitor's own user ID (`by_user_id`). */
  userId: string;
  say: (body: string) => Promise<void>;
  typing: () => Promise<void>;
}

export function inboxState(): E2EState & { admin2: NonNullable<E2EState["admin2"]>; token: string } {
  const e2e = readState();
  if (!e2e.admin2 || !e2e.token || !e2e.admin.appId) {
    throw new Error("global-setup made no second operator");
  }
  return { ...e2e, admin2: e2e.admin2, token: e2e.token };
}

export async function tokenApi(
  playwright: { request: { newContext: (o: object) => Promise<APIRequestContext> } },
  e2e: E2EState,
): Promise<APIRequestContext> {
  return playwright.request.newContext({
    baseURL: e2e.baseURL,
    extraHTTPHeaders: { Authorization: `Token ${e2e.token}` },
  });
}

export async function openInbox(
  browser: Browser,
  op: { email: string; password: string },
  viewport = { width: 1280, height: 800 },
) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await logInThroughForm(page, op);
  await expect(page).toHaveURL(/\/inbox/);
  await expect(page.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
  return { context, page };
}

/** A value no other test run uses, for texts and tags to find again. */
export const stamp = () => `${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;

/** Both operators in their own browser contexts on the Inbox, and the app's token for the visitor's side. */
export async function twoAdmins(
  browser: Browser,
  playwright: { request: { newContext: (o: object) => Promise<APIRequestContext> } },
) {
  const e2e = inboxState();
  const api = await tokenApi(playwright, e2e);
  const one = await openInbox(browser, e2e.admin);
  const two = await openInbox(browser, e2e.admin2);
  return {
    e2e,
    api,
    a: one.page,
    b: two.page,
    close: async () => {
      await one.context.close();
      await two.context.close();
      await api.dispose();
    },
  };
}

export async function post(api: APIRequestContext, path: string, data: Record<string, unknown>) {
  const res = await api.post(path, { data });
  const body = (await res.json()) as { data: Record<string, unknown>; meta: { status: number } };
  expect(res.status(), JSON.stringify(body)).toBe(200);
  return body.data;
}

/** Starts a conversation as a visitor: a new one, or `userId` (their own ID); `channel` is a channel's ID. */
export async function startVisitor(
  api: APIRequestContext,
  body: string,
  opts: { userId?: string; channel?: string } = {},
): Promise<Visitor> {
  const userId = opts.userId ?? `visitor-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
  const started = await post(api, `/api/users/${encodeURIComponent(userId)}/startconversation`, {
    by_user_id: true,
    body,
    ...(opts.channel ? { channel: opts.channel } : {}),
  });
  const conversation = String(started.id);
  return {
    conversation,
    userId,
    say: async (text) =>
      void (await post(api, `/api/conversations/${conversation}/reply`, {
        from_user: "default_user",
        body: text,
      })),
    typing: async () =>
      void (await post(api, `/api/conversations/${conversation}/settyping`, {
        from_user: "default_user",
        body: "hel",
      })),
  };
}

export const row = (page: Page, id: string) =>
  page.locator(`[data-testid="conversation-row"][data-conversation-id="${id}"]`);

export async function openConversation(page: Page, id: string) {
  await row(page, id).click();
  await expect(page).toHaveURL(new RegExp(`[?&]c=${id}(&|$)`));
  await expect(page.getByRole("list", { name: "Messages" })).toBeVisible();
}

/** Sends what the composer holds with Enter. */
export async function reply(page: Page, text: string) {
  await page.getByTestId("composer-input").fill(text);
  await page.getByTestId("composer-input").press("Enter");
}

/**
 * Waits until each page gets the app's socket messages: a message sent between a page's first load and its
 * socket subscription may never reach it, so tests that load a page and then expect live updates wait here.
 */
export async function listening(api: APIRequestContext, ...pages: Page[]) {
  const probe = await startVisitor(api, `Probe ${Date.now()}`);
  for (const page of pages) {
    await expect(page.getByTestId("count-open")).not.toHaveText("–");
    await expect(async () => {
      await probe.say(`Probe again ${Date.now()}`);
      await expect(row(page, probe.conversation)).toBeVisible({ timeout: 2_000 });
    }).toPass();
  }
}
