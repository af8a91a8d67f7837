import type { APIRequestContext, APIResponse, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { readState, type E2EState } from "./state";
import { hostPage, startHostSite, type HostSite } from "../../lib/testing/host-page";

/**
 * The messenger specs' common ground: the operators' API (the app's token), the app's public messenger key, a
 * customer's site on another origin, and the visitor's moves in the frame.
 */
export interface MessengerSite {
  e2e: E2EState;
  api: APIRequestContext;
  key: string;
  site: HostSite;
  close(): Promise<void>;
}

/** A 200 answer's `data`; anything else fails with the answer's body. */
export async function data<T>(res: APIResponse): Promise<T> {
  const body = (await res.json()) as { data: T };
  expect(res.status(), JSON.stringify(body)).toBe(200);
  return body.data;
}

/**
 * Starts the site with the pages `pages(key)` makes; the site reads the returned map on every request, so a spec
 * may add pages to it later.
 */
export async function messengerSite(
  playwright: { request: { newContext: (o: object) => Promise<APIRequestContext> } },
  pages: (key: string, e2e: E2EState) => Record<string, string>,
): Promise<MessengerSite> {
  const e2e = readState();
  const api = await playwright.request.newContext({
    baseURL: e2e.baseURL,
    extraHTTPHeaders: { Authorization: `Token ${e2e.token}` },
  });
  const { public_key: key } = await data<{ public_key: string }>(
    await api.get(`/api/v2/apps/${e2e.admin.appId}/messenger`),
  );
  const site = await startHostSite(pages(key, e2e));
  return {
    e2e,
    api,
    key,
    site,
    close: async () => {
      await site.close();
      await api.dispose();
    },
  };
}

export const frameOf = (page: Page) => page.frameLocator('iframe[title="Messenger"]');
export const messages = (page: Page) => frameOf(page).getByRole("list", { name: "Messages" });
export const launcher = (page: Page, name = "Open messages") =>
  page.getByRole("button", { name, exact: true });

/** Resolves when the frame's socket has subscribed to "messenger" (its ack): from then on, events arrive live. */
export function subscribed(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on("websocket", (ws) => {
      if (!ws.url().includes("/socket.io/")) return;
      ws.on("framereceived", (f) => {
        if (typeof f.payload === "string" && f.payload.includes('"subscribed":["messenger"')) resolve();
      });
    });
  });
}

/** Opens `url` and the messenger on it, once the frame's socket is subscribed. */
export async function openMessenger(page: Page, url: string) {
  const live = subscribed(page);
  await page.goto(url);
  await launcher(page).click();
  await expect(page.locator('iframe[title="Messenger"]')).toBeVisible();
  await live;
}

/** Starts a conversation from the frame's composer on `url`; its id, from the visitor API's answer. */
export async function startInFrame(page: Page, url: string, text: string): Promise<number> {
  await openMessenger(page, url);
  const frame = frameOf(page);
  await frame.getByRole("button", { name: "New conversation" }).click();
  const started = page.waitForResponse(
    (r) => r.url().endsWith("/api/v2/messenger/conversations") && r.request().method() === "POST",
  );
  await frame.getByRole("textbox", { name: "Message" }).fill(text);
  await frame.getByRole("textbox", { name: "Message" }).press("Enter");
  const answer = (await (await started).json()) as { data: { conversation: { id: number } } };
  await expect(messages(page).getByText(text)).toBeVisible();
  return answer.data.conversation.id;
}

/** A spec's customer site with the messenger on `/shop`, and the moves most specs make on it. */
export interface Shop {
  /** The site; read it inside tests and hooks (it starts in the spec's beforeAll). */
  readonly m: MessengerSite;
  /** The operators' API (the app's token). */
  readonly api: APIRequestContext;
  /** The page with the messenger. */
  readonly url: string;
  open: (page: Page) => Promise<void>;
  start: (page: Page, text: string) => Promise<number>;
  /** An operator's reply through the API (v2). */
  reply: (id: number, fields: Record<string, unknown>) => Promise<APIResponse>;
}

/** Starts a `/shop` site before the spec's tests (its own beforeAll) and closes it after them. */
export function shopSite(): Shop {
  let m: MessengerSite | undefined;
  test.beforeAll(async ({ playwright }) => {
    m = await messengerSite(playwright, (key, e2e) => ({ "/shop": hostPage({ origin: e2e.baseURL, key }) }));
  });
  test.afterAll(async () => {
    await m?.close();
  });
  const site = () => {
    if (!m) throw new Error("the shop site starts in the spec's beforeAll");
    return m;
  };
  return {
    get m() {
      return site();
    },
    get api() {
      return site().api;
    },
    get url() {
      return `${site().site.url}/shop`;
    },
    open: (page) => openMessenger(page, `${site().site.url}/shop`),
    start: (page, text) => startInFrame(page, `${site().site.url}/shop`, text),
    reply: (id, fields) => site().api.post(`/api/v2/conversations/${id}/reply`, { data: fields }),
  };
}

/** The site's user (by the site's own user ID) as the operators' API shows it: null until it exists. */
export async function siteUser(api: APIRequestContext, userId: string) {
  const res = await api.get(`/api/v2/users/${userId}`, {
    params: { by_user_id: "true", props_custom: "true" },
  });
  if (res.status() !== 200) return null;
  const u = (
    (await res.json()) as {
      data: { user_id: string; props: Record<string, unknown>; props_custom: Record<string, unknown> };
    }
  ).data;
  return { user_id: u.user_id, name: u.props.$name, custom: u.props_custom };
}

/** The user's events (by the site's own user ID), with their params: the site's and the service's (`$…`). */
export async function userEvents(api: APIRequestContext, userId: string) {
  const res = await api.get(`/api/v2/users/${userId}/events`, { params: { by_user_id: "true" } });
  return (
    ((await res.json()) as { data?: { type: { name: string }; props: Record<string, unknown> }[] }).data ?? []
  );
}
