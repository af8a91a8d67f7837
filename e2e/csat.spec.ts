import path from "node:path";
import type { AddressObject } from "mailparser";
import { test, expect, type APIRequestContext, type Page } from "@playwright/test";
import { logInThroughForm } from "./support/fixtures";
import { stamp } from "./support/inbox";
import { data, frameOf, messages, openMessenger } from "./support/messenger";
import { logTail, startE2EServer, stopE2EServer, type E2EServer } from "./support/server";
import { readRun } from "./support/state";
import { startSmtpSink, type SmtpSink } from "../lib/email/testing";
import { hostPage, startHostSite, type HostSite } from "../lib/testing/host-page";

// Satisfaction ratings (CSAT) through real parts: an operator closes a conversation, the visitor rates it in the
// messenger on a customer's page, and the rating shows in the operator's thread and in Reports; a visitor who is
// away gets the request by email (SMTP to a sink this spec runs) and a link of it records the rating. The app's
// setting is turned on here, so the spec runs a server of its own rather than changing global-setup's.

let sink: SmtpSink | undefined;
let server: E2EServer | undefined;
let api: APIRequestContext | undefined;
let site: HostSite | undefined;

test.beforeAll(async ({ playwright }, testInfo) => {
  test.setTimeout(240_000);
  sink = await startSmtpSink();
  server = await startE2EServer({
    tmpDir: readRun().tmpDir,
    name: `csat_w${testInfo.parallelIndex}_r${testInfo.repeatEachIndex}`,
    extraEnv: { SMTP_URL: sink.url, INBOUND_EMAIL_DOMAIN: "mail.test", EMAIL_CONTINUITY_DELAY: "1" },
  });
  const e2e = server.state;
  api = await playwright.request.newContext({
    baseURL: e2e.baseURL,
    extraHTTPHeaders: { Authorization: `Token ${e2e.token}` },
  });
  await data(await api.post(`/api/v2/apps/${e2e.admin.appId}/csat`, { data: { enabled: true } }));
  const { public_key: key } = await data<{ public_key: string }>(
    await api.get(`/api/v2/apps/${e2e.admin.appId}/messenger`),
  );
  site = await startHostSite({ "/shop": hostPage({ origin: e2e.baseURL, key }) });
});

test.afterEach(async ({}, testInfo) => {
  if (server && testInfo.status !== testInfo.expectedStatus)
    await testInfo.attach("server.log", { body: logTail(server, 200_000), contentType: "text/plain" });
});

test.afterAll(async () => {
  await site?.close();
  await api?.dispose();
  if (server) await stopE2EServer(server, { removeData: true });
  await sink?.close();
});

/** Screenshots for the docs only when asked (E2E_SCREENSHOTS=docs/screenshots), as email-continuity does. */
async function shot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOTS;
  if (dir) await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

const addressOf = (a: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(a) ? a.flatMap((x) => x.value) : (a?.value ?? [])).map((v) => v.address?.toLowerCase());

async function answerAndClose(id: number | string, text: string) {
  await data(await api!.post(`/api/v2/conversations/${id}/reply`, { data: { body: text } }));
  await data(await api!.post(`/api/v2/conversations/${id}/close`, { data: {} }));
}

test("the visitor rates a closed conversation in the messenger; the operator sees it in the thread and Reports", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const e2e = server!.state;
  const question = `Where is my parcel? ${stamp()}`;
  const comment = `Fast and friendly ${stamp()}`;

  await openMessenger(page, `${site!.url}/shop`);
  const frame = frameOf(page);
  await frame.getByRole("button", { name: "New conversation" }).click();
  const started = page.waitForResponse(
    (r) => r.url().endsWith("/api/v2/messenger/conversations") && r.request().method() === "POST",
  );
  await frame.getByRole("textbox", { name: "Message" }).fill(question);
  await frame.getByRole("textbox", { name: "Message" }).press("Enter");
  const id = ((await (await started).json()) as { data: { conversation: { id: number } } }).data.conversation
    .id;
  await expect(messages(page).getByText(question)).toBeVisible();

  await answerAndClose(id, "It arrives tomorrow.");
  // Live: the card comes with the close, the thread still open.
  const card = frame.getByRole("form", { name: "Rate this conversation" });
  await expect(card).toBeVisible({ timeout: 30_000 });
  await card.getByRole("button", { name: "Send rating" }).click();
  await expect(card.getByRole("alert")).toHaveText("Please pick a score first.");
  await card.getByRole("button", { name: "4 out of 5: Good" }).click();
  await expect(card.getByRole("button", { name: "4 out of 5: Good" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await card.getByRole("textbox", { name: "Comment" }).fill(comment);
  await shot(page, "csat-messenger-card");
  await card.getByRole("button", { name: "Send rating" }).click();
  const given = frame.getByRole("status", { name: "Your rating" });
  await expect(given).toContainText("You rated this conversation Good. Thank you!");
  await expect(given).toContainText(comment);
  await expect(card).toHaveCount(0);
  await shot(page, "csat-messenger-rated");
  const context = await browser.newContext({ baseURL: e2e.baseURL, viewport: { width: 1280, height: 800 } });
  try {
    const op = await context.newPage();
    await logInThroughForm(op, e2e.admin);
    await expect(op).toHaveURL(/\/inbox/);
    await op.goto(`/inbox?tab=closed&c=${id}`);
    const line = op.getByTestId("rating-given");
    await expect(line).toContainText("4 out of 5");
    await expect(line).toContainText(comment);
    await expect(line).toContainText("in the messenger");
    await shot(op, "csat-inbox-thread");
    // The Inbox's filter by rating: good ones hold it, bad ones do not.
    await op.getByRole("combobox", { name: "Filter by rating" }).selectOption("good");
    await expect(op.locator(`[data-testid="conversation-row"][data-conversation-id="${id}"]`)).toBeVisible();
    await op.getByRole("combobox", { name: "Filter by rating" }).selectOption("bad");
    await expect(op.locator(`[data-testid="conversation-row"][data-conversation-id="${id}"]`)).toHaveCount(0);

    await op.goto("/reports");
    const report = op.getByTestId("report-csat");
    await expect(report.getByTestId("report-csat-score")).toContainText("100%");
    await expect(report.getByTestId("report-csat-comments")).toContainText(comment);
    await expect(report.getByTestId("report-csat-operators")).toContainText(e2e.admin.name);
    await report.scrollIntoViewIfNeeded();
    await shot(op, "csat-report");
  } finally {
    await context.close();
  }
});

/** A visitor the site knows by its user ID and address, never in the messenger, whose conversation is answered
 * and closed: the rating request goes to them by email. */
async function closeForAwayVisitor(question: string) {
  const email = `rita-${stamp()}@example.com`;
  const external = `rita-${stamp()}`;
  const conv = await data<{ id: number }>(
    await api!.post(`/api/v2/users/${external}/startconversation`, {
      data: { by_user_id: true, body: question },
    }),
  );
  const user = await data<{ id: number | string }>(
    await api!.post(`/api/v2/users/${external}/props`, {
      data: { by_user_id: true, operations: [{ op: "update_or_create", key: "$email", value: email }] },
    }),
  );
  await answerAndClose(conv.id, "Done, changed.");
  return { conversation: conv.id, user: String(user.id), email };
}

/** The five one-click score links of the rating email sent to `email`. */
async function ratingLinks(email: string) {
  const ratingMail = () =>
    sink!.received.find((m) => addressOf(m.parsed.to).includes(email) && m.parsed.text?.includes("/rate?t="));
  await expect.poll(() => Boolean(ratingMail()), { timeout: 45_000 }).toBe(true);
  const text = ratingMail()!.parsed.text ?? "";
  return [...text.matchAll(/(https?:\/\/\S+\/rate\?t=\S+)/g)].map((m) => m[1]!);
}

test("an away visitor gets the rating request by email, and its link records the rating", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const away = await closeForAwayVisitor("Can I change my order?");
  const links = await ratingLinks(away.email);
  expect(links).toHaveLength(5);

  // The second link: four stars.
  await page.goto(links[1]!);
  await expect(page.getByRole("heading", { name: "Thank you!" })).toBeVisible();
  await expect(page.getByTestId("rated")).toContainText("4 out of 5");
  await page.getByLabel("Anything to add? (optional)").fill("Quick change, thanks");
  await page.getByRole("button", { name: "Send comment" }).click();
  await expect(page.getByText("Your comment: “Quick change, thanks”")).toBeVisible();
  await shot(page, "csat-email-page");

  const stored = await data<{ rating: number; comment: string; channel: string }>(
    await api!.get(`/api/v2/conversations/${away.conversation}/rating`),
  );
  expect(stored).toMatchObject({ rating: 4, comment: "Quick change, thanks", channel: "email" });
});

test("the lead card shows the user's rating: its stars and comment, linked to the conversation", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const away = await closeForAwayVisitor("Does it come in blue?");
  const comment = `Blue it is ${stamp()}`;
  await page.goto((await ratingLinks(away.email))[1]!);
  await page.getByLabel("Anything to add? (optional)").fill(comment);
  await page.getByRole("button", { name: "Send comment" }).click();
  await expect(page.getByText(`Your comment: “${comment}”`)).toBeVisible();

  const e2e = server!.state;
  const context = await browser.newContext({ baseURL: e2e.baseURL, viewport: { width: 1280, height: 800 } });
  try {
    const op = await context.newPage();
    await logInThroughForm(op, e2e.admin);
    await expect(op).toHaveURL(/\/inbox/);
    await op.goto(`/leads/users/${away.user}`);
    const ratings = op.getByRole("region", { name: "Ratings" });
    const rating = ratings.getByRole("list", { name: "Latest ratings" }).getByRole("listitem");
    await expect(rating).toHaveCount(1);
    await expect(rating).toContainText("★★★★☆");
    await expect(rating).toContainText("4 out of 5");
    await expect(rating).toContainText(comment);
    await shot(op, "csat-lead-card");
    await rating.getByRole("link", { name: "4 out of 5" }).click();
    await expect(op).toHaveURL(new RegExp(`/inbox\\?.*c=${away.conversation}`));
  } finally {
    await context.close();
  }
});

test("Settings: the rating switch turns off and on from the keyboard; a reload and the API agree", async ({
  browser,
}) => {
  const e2e = server!.state;
  const setting = `/api/v2/apps/${e2e.admin.appId}/csat`;
  const enabled = async () => (await data<{ enabled: boolean }>(await api!.get(setting))).enabled;
  const context = await browser.newContext({ baseURL: e2e.baseURL, viewport: { width: 1280, height: 800 } });
  try {
    const op = await context.newPage();
    await logInThroughForm(op, e2e.admin);
    await expect(op).toHaveURL(/\/inbox/);
    await op.goto("/settings#messenger");
    const box = op.getByRole("checkbox", { name: /^Ask visitors to rate closed conversations/ });
    for (const next of [false, true]) {
      await expect(box).toBeChecked({ checked: !next });
      await expect(box).toBeEnabled();
      await box.focus();
      const saved = op.waitForResponse(
        (r) => r.url().endsWith(`/apps/${e2e.admin.appId}/csat`) && r.request().method() === "POST",
      );
      await op.keyboard.press("Space");
      expect((await saved).status()).toBe(200);
      await expect(box).toBeChecked({ checked: next });
      // The keyboard user keeps their place once the save is done.
      await expect(box).toBeEnabled();
      await expect(box).toBeFocused();
      expect(await enabled()).toBe(next);
      await op.reload();
      await expect(box).toBeChecked({ checked: next });
    }
  } finally {
    // The other tests of this server ask for ratings.
    await data(await api!.post(setting, { data: { enabled: true } }));
    await context.close();
  }
});
