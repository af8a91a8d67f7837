import type { APIRequestContext, Page, Route } from "@playwright/test";
import { expect, logInThroughForm, test } from "./support/fixtures";
import {
  inboxState,
  listening,
  openConversation,
  reply,
  stamp,
  startVisitor,
  twoAdmins,
  type Visitor,
} from "./support/inbox";

/** Sending from the Inbox: the thread a reply belongs to, failures and Retry, drafts, alerts after a reload. */

// Each test is a long chain of steps seen live by two operators: on a loaded 2-core machine a click took 7–10 s
// (two CI runs each ran out of 60 s in a different test of this file).
test.describe.configure({ mode: "serial", timeout: 180_000 });

let ops: Awaited<ReturnType<typeof twoAdmins>> | undefined;
let a: Page;
let b: Page;
let api: APIRequestContext;

test.beforeAll(async ({ browser, playwright }) => {
  ops = await twoAdmins(browser, playwright);
  ({ api, a, b } = ops);
});

test.afterAll(() => ops?.close());

const replyUrl = (v: Visitor) => `**/api/conversations/${v.conversation}/reply`;
const admin = (page: Page, text: string) => page.getByTestId("part-admin").filter({ hasText: text });

/** Holds the requests `url` matches until `release` is called, then lets `then` answer them. */
async function hold(page: Page, url: string, then: (route: Route) => Promise<void>) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  await page.route(url, async (route) => {
    await gate;
    await then(route);
  });
  return release;
}

/**
 * A visitor message in the open thread, waited for: its trip through the API, the database and the socket comes
 * after the page has handled an answer it already received, so what that answer did to the thread shows by then.
 */
async function visitorSays(page: Page, v: Visitor, text: string) {
  await v.say(text);
  await expect(page.getByTestId("part-user").filter({ hasText: text })).toBeVisible();
}

async function partsOf(v: Visitor): Promise<{ body: string; random_id: number | null }[]> {
  const res = await api.get(`/api/conversations/${v.conversation}/parts`, {
    params: { paginate_count: 50 },
  });
  return ((await res.json()) as { data: { body: string; random_id: number | null }[] }).data;
}

test("a reply still in flight when the operator opens another conversation lands in its own thread", async () => {
  const first = await startVisitor(api, `First thread ${stamp()}`);
  const second = await startVisitor(api, `Second thread ${stamp()}`);
  await a.goto(`/inbox?c=${first.conversation}`);
  await expect(a.getByRole("list", { name: "Messages" })).toBeVisible();
  await listening(api, a);

  // Answered while the other conversation is open.
  const sent = `Sent from the first thread ${stamp()}`;
  const release = await hold(a, replyUrl(first), (route) => route.continue());
  await reply(a, sent);
  await expect(admin(a, sent)).toHaveAttribute("data-pending", "true");
  await openConversation(a, second.conversation);
  const answered = a.waitForResponse((r) => r.url().endsWith(`/conversations/${first.conversation}/reply`));
  release();
  expect((await answered).status()).toBe(200);
  await visitorSays(a, second, `Still here ${stamp()}`);
  await expect(admin(a, sent)).toHaveCount(0);
  await a.unroute(replyUrl(first));

  await openConversation(a, first.conversation);
  await expect(admin(a, sent)).toHaveCount(1);
  await expect(admin(a, sent)).not.toHaveAttribute("data-pending", "true");

  // Failing while the other conversation is open: the error and Retry wait in the first thread.
  const failing = `This one fails first ${stamp()}`;
  const fail = await hold(a, replyUrl(first), (route) => route.abort("connectionrefused"));
  await reply(a, failing);
  await expect(admin(a, failing)).toHaveAttribute("data-pending", "true");
  await openConversation(a, second.conversation);
  const failed = a.waitForEvent("requestfailed", (r) =>
    r.url().endsWith(`/conversations/${first.conversation}/reply`),
  );
  fail();
  await failed;
  await visitorSays(a, second, `Hello again ${stamp()}`);
  await expect(admin(a, failing)).toHaveCount(0);
  await a.unroute(replyUrl(first));

  await openConversation(a, first.conversation);
  const error = admin(a, failing).getByTestId("send-error");
  await expect(error).toContainText("Not sent");
  await error.getByRole("button", { name: "Retry" }).click();
  await expect(admin(a, failing)).toHaveCount(1);
  await expect(admin(a, failing)).not.toHaveAttribute("data-pending", "true");
  expect((await partsOf(first)).filter((p) => p.body === failing)).toHaveLength(1);
  expect((await partsOf(second)).filter((p) => p.body === sent || p.body === failing)).toHaveLength(0);
});

test("a failed send shows the error; Retry sends it, and it shows once to both operators", async () => {
  const v = await startVisitor(api, `Can you help? ${stamp()}`);
  await a.goto(`/inbox?c=${v.conversation}`);
  await b.goto(`/inbox?c=${v.conversation}`);
  await expect(b.getByRole("list", { name: "Messages" })).toBeVisible();
  await listening(api, b);

  let tries = 0;
  await a.route(
    replyUrl(v),
    async (route) => {
      tries++;
      await route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({
          data: null,
          meta: { status: 500, error: "InternalError", error_message: "The server had a problem" },
        }),
      });
    },
    { times: 1 },
  );
  const text = `Sorry for the wait ${stamp()}`;
  await reply(a, text);
  const error = admin(a, text).getByTestId("send-error");
  await expect(error).toContainText("Not sent: The server had a problem");
  expect(tries).toBe(1);
  expect((await partsOf(v)).filter((p) => p.body === text)).toHaveLength(0);

  await error.getByRole("button", { name: "Retry" }).click();
  await expect(admin(b, text)).toHaveCount(1);
  await expect(admin(a, text)).not.toHaveAttribute("data-pending", "true");
  await expect(admin(a, text)).toHaveCount(1);
  await expect(a.getByTestId("send-error")).toHaveCount(0);
  expect((await partsOf(v)).filter((p) => p.body === text)).toHaveLength(1);
  await expect(admin(b, text)).toHaveCount(1);
});

test("an unsent draft stays with its conversation while the operator looks at another", async () => {
  const one = await startVisitor(api, `Draft one ${stamp()}`);
  const two = await startVisitor(api, `Draft two ${stamp()}`);
  await a.goto("/inbox");
  const input = a.getByTestId("composer-input");

  await openConversation(a, one.conversation);
  await input.fill("Half a thought for one");
  await openConversation(a, two.conversation);
  await expect(input).toHaveValue("");
  await input.fill("Line one\nline two for two");
  await openConversation(a, one.conversation);
  await expect(input).toHaveValue("Half a thought for one");
  await openConversation(a, two.conversation);
  await expect(input).toHaveValue("Line one\nline two for two");

  // Sent drafts are gone.
  await input.press("Enter");
  await expect(admin(a, "line two for two")).toHaveCount(1);
  await openConversation(a, one.conversation);
  await openConversation(a, two.conversation);
  await expect(input).toHaveValue("");
});

test("alerts turned on in an earlier visit play the sound after the next click", async ({ browser }) => {
  const e2e = inboxState();
  const context = await browser.newContext({ permissions: ["notifications"] });
  // Counts the sounds started (the beep is an oscillator).
  await context.addInitScript(() => {
    const w = window as unknown as { __beeps: number };
    w.__beeps = 0;
    const start: (this: AudioScheduledSourceNode, when?: number) => void = Reflect.get(
      AudioScheduledSourceNode.prototype,
      "start",
    );
    OscillatorNode.prototype.start = function (this: OscillatorNode, when?: number) {
      w.__beeps++;
      start.call(this, when);
    };
  });
  const page = await context.newPage();
  try {
    await logInThroughForm(page, e2e.admin);
    await expect(page.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
    await page.getByRole("button", { name: "Enable alerts" }).click();
    await expect(page.getByRole("button", { name: "Alerts on" })).toHaveAttribute("aria-pressed", "true");

    await page.reload();
    await expect(page.getByRole("button", { name: "Alerts on" })).toHaveAttribute("aria-pressed", "true");
    await listening(api, page);
    // Any gesture will do; then the operator looks at another window.
    await page.getByRole("heading", { level: 1, name: "Inbox" }).click();
    await page.evaluate(() => {
      document.hasFocus = () => false;
    });
    const v = await startVisitor(api, `Anyone there? ${stamp()}`);
    await expect(page.locator(`[data-conversation-id="${v.conversation}"]`)).toBeVisible();
    await expect(page).toHaveTitle(/^\(\d+\) /);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __beeps: number }).__beeps))
      .toBeGreaterThan(0);
  } finally {
    await context.close();
  }
});
