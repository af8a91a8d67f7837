import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { apiFor, logIn, runId, type Api, type Leads } from "./support/leads";
import type { Message, MessageStats } from "../lib/messages/schemas";

// Messages: a chat message made from the keyboard, refused once for its empty text, paused and resumed from the
// list, sent by the server to a user who does the trigger event, and its statistics; the editor's preview in the
// messenger's frame. The worker's app is shared with
// other specs: the trigger is an event of this run only, and the message is archived at the end.

test.describe.configure({ timeout: 120_000 });

const run = runId("msgs");
const name = `Welcome ${run}`;
const event = `visited_${run}`;
let api: Api;

test.beforeAll(async ({ playwright, e2e }) => {
  const request = await playwright.request.newContext({ baseURL: e2e.baseURL });
  api = await apiFor(request, e2e.admin);
});

test.afterAll(async () => {
  const mine = (await api.get<Message[]>(`/api/apps/${api.appId}/messages`)).filter((m) =>
    m.name.includes(run),
  );
  for (const m of mine) await api.post(`/api/apps/${api.appId}/messages/${m.id}`, { status: "archived" });
});

/** Presses Tab (or `key`) until `target` has the focus (never more than `max` times). */
async function tabTo(page: Page, target: Locator, max = 40, key = "Tab") {
  for (let i = 0; i < max && !(await target.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press(key);
  await expect(target).toBeFocused();
}

/** The message of this run, as the API lists it. */
async function saved(): Promise<Message> {
  const all = await api.get<Message[]>(`/api/apps/${api.appId}/messages`);
  const m = all.find((x) => x.name === name);
  if (!m) throw new Error(`${name} is not listed`);
  return m;
}

/** The message's card in the editor's preview: drawn by the messenger's frame itself, in preview mode. */
const previewCard = (page: Page) =>
  page.frameLocator("[data-testid=message-preview] iframe").locator("main section.card.message");

const rowOf = (page: Page) => page.getByTestId("messages-table").getByRole("row").filter({ hasText: name });

test("a chat message made from the keyboard, paused and resumed from the list, and its statistics", async ({
  page,
  admin,
}) => {
  // The user the message reaches, there before the message so its audience counts them.
  const email = `user@${run}.test`;
  const user = await api.upsert(`${run}-user`, { $email: email });
  await logIn(page, admin);
  await page.goto("/messages");
  await expect(page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Messages", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );

  // New message, from the keyboard: name, then straight to Create (the text is left empty).
  const create = page.getByRole("link", { name: "New message" });
  await tabTo(page, create);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/messages\/new$/);
  const form = page.getByRole("form", { name: "New message" });
  const nameInput = form.getByLabel("Name", { exact: true });
  await tabTo(page, nameInput, 60);
  await page.keyboard.type(name);
  await expect(form.getByRole("radio", { name: "Chat" })).toBeChecked();
  // The sender is the logged-in operator by default.
  await expect(form.getByLabel("Sender")).toHaveValue(/^\d+$/);
  const eventInput = form.getByLabel("Event", { exact: true });
  await tabTo(page, eventInput);
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(event);
  await expect(form.getByLabel("Page URL pattern")).toHaveCount(0);

  // To whom, in the Leads filter builder from the keyboard: the audience's size follows, counted by the server.
  const size = form.getByTestId("audience-size");
  await expect(size).toHaveText("Everyone");
  await tabTo(page, form.getByRole("button", { name: "Add condition", exact: true }));
  await page.keyboard.press("Enter");
  const value = form.getByLabel("Value of condition 1", { exact: true });
  // The new condition's value is just before the button, past its own buttons.
  await tabTo(page, value, 10, "Shift+Tab");
  await page.keyboard.type(`@${run}.test`);
  const audience = {
    type: "and",
    filters: [{ property_name: "$email", type: "str_contains", value: { value: `@${run}.test` } }],
  };
  const { total } = await api.get<Leads>(`/api/apps/${api.appId}/users`, { filters: audience, limit: 1 });
  await expect(size).toHaveText(`${total} ${total === 1 ? "lead matches" : "leads match"} now`);
  await tabTo(page, form.getByRole("button", { name: "Create message" }));
  await page.keyboard.press("Enter");

  // The server's error for the empty text shows under it, and the focus goes there.
  const text = form.getByLabel("Text", { exact: true });
  await expect(text).toBeFocused();
  await expect(text).toHaveAttribute("aria-invalid", "true");
  await expect(text).toHaveAccessibleDescription(/must not be empty/);
  await expect(form.getByRole("alert")).toContainText("The message was not saved");

  // The preview, the messenger's own frame, follows the text; then Create.
  await page.keyboard.type("Hi! Can I help?");
  await expect(previewCard(page).locator(".message-body")).toHaveText("Hi! Can I help?");
  await expect(text).not.toHaveAttribute("aria-invalid", "true");
  await tabTo(page, form.getByRole("button", { name: "Create message" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/messages\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const m = await saved();
  expect(m).toMatchObject({ kind: "chat", status: "active", trigger: { event }, timeout: 0, audience });
  expect(m.content).toMatchObject({ body: "Hi! Can I help?" });

  // Back to the list: the message is there with its kind, status, trigger and figures.
  await tabTo(page, page.getByRole("link", { name: "← All messages" }), 60);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/messages$/);
  const row = rowOf(page);
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell").nth(0)).toHaveText("Chat");
  await expect(row).toContainText("Active");
  await expect(row).toContainText(event);

  // Pause and resume from the list, by keyboard; the focus stays on the button, whose label follows.
  const pause = row.getByRole("button", { name: `Pause ${name}` });
  await pause.focus();
  await page.keyboard.press("Enter");
  await expect(row).toContainText("Paused");
  const resume = row.getByRole("button", { name: `Resume ${name}` });
  await expect(resume).toBeFocused();
  await expect.poll(async () => (await saved()).status).toBe("paused");
  await page.keyboard.press("Enter");
  await expect(row).toContainText("Active");
  await expect(row.getByRole("button", { name: `Pause ${name}` })).toBeFocused();
  await expect.poll(async () => (await saved()).status).toBe("active");

  // A user does the trigger event: the server sends the message in the background.
  await api.post(`/api/users/${user}/events`, { event, params: {} });
  await expect
    .poll(
      async () => (await api.get<MessageStats>(`/api/apps/${api.appId}/messages/${m.id}/stats`)).sent.sent,
      {
        timeout: 30_000,
      },
    )
    .toBe(1);

  // Its statistics: the counts, and the day's row in the chart's table view.
  await page.reload();
  await expect(rowOf(page).getByRole("cell").nth(3)).toHaveText("1");
  await rowOf(page).getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const stats = page.getByRole("tab", { name: "Statistics" });
  await page.getByRole("tab", { name: "Message" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(stats).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/#statistics$/);
  const figures = page.getByTestId("message-figures");
  await expect(figures.locator("tr[data-figure=sent] td").first()).toHaveText("1");
  await expect(figures.locator("tr[data-figure=read] td").first()).toHaveText("0");
  await expect(figures.locator("tr[data-figure=replied] td").first()).toHaveText("0");
  await expect(page.getByTestId("goal-lift")).toContainText("—");
  await expect(page.getByTestId("report-message-days").locator("svg[role=img]")).toBeVisible();
  await page.getByTestId("report-message-days").getByRole("button", { name: "Table", exact: true }).click();
  const today = new Date().toISOString().slice(0, 10);
  const day = page.getByTestId("report-message-days-table").getByRole("row").nth(1).getByRole("cell");
  await expect(day.nth(0)).toHaveText(today);
  await expect(day.nth(1)).toHaveText("1");

  // Archived from the list, it moves to the Archived tab.
  await page.goto("/messages");
  await rowOf(page)
    .getByRole("button", { name: `Archive ${name}` })
    .click();
  await expect(rowOf(page)).toHaveCount(0);
  await page.getByRole("tab", { name: "Archived" }).click();
  await expect(page).toHaveURL(/status=archived/);
  await expect(rowOf(page)).toContainText("Archived");
  await expect
    .poll(async () =>
      (await api.get<Message[]>(`/api/apps/${api.appId}/messages`)).some((x) => x.name === name),
    )
    .toBe(false);
});

test("the editor's preview is the messenger's frame: a chat message, then a pop-up, in the app's accent", async ({
  page,
  admin,
}) => {
  const { accent_color: accent } = await api.get<{ accent_color: string }>(
    `/api/apps/${api.appId}/messenger`,
  );
  await logIn(page, admin);
  await page.goto("/messages/new");
  const form = page.getByRole("form", { name: "New message" });
  const frame = page.getByTitle("Preview in the messenger");
  await expect(frame).toHaveAttribute("src", "/messenger/frame.html?preview=1");
  const card = previewCard(page);

  // A chat message: the operator's name, the text as typed (as text, not HTML), the Reply button in the accent.
  await form.getByLabel("Text", { exact: true }).fill("Hello <b>there</b>");
  await expect(card.locator(".message-body")).toHaveText("Hello <b>there</b>");
  await expect(card.locator(".author")).toContainText(admin.name);
  const reply = card.locator("button.primary", { hasText: "Reply" });
  await expect(reply).toBeVisible();
  const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;
  await expect(reply).toHaveCSS("background-color", rgb(accent));

  // A pop-up: its title, the text kept, the email field, and the button once it has a label.
  await form.getByRole("radio", { name: "Pop-up" }).check();
  await form.getByLabel("Title", { exact: true }).fill("A gift for you");
  await expect(card.locator("h2")).toHaveText("A gift for you");
  await expect(card.locator(".message-body")).toHaveText("Hello <b>there</b>");
  await expect(card.locator(".author")).toHaveCount(0);
  await form.getByLabel("Ask for the visitor's email").check();
  await expect(card.locator("input[type=email]")).toBeVisible();
  await form.getByLabel("Add a button").check();
  await form.getByLabel("Button label").fill("Get it");
  await expect(card.locator("a.primary")).toHaveText("Get it");

  // Nothing in it acts: a click on the button opens nothing, and Tab goes past the frame, never into it.
  await card.locator("a.primary").click({ force: true });
  expect(page.context().pages()).toHaveLength(1);
  // The form's last control is just before the preview.
  await form.getByRole("button", { name: "Create message" }).focus();
  await page.keyboard.press("Tab");
  expect(await frame.evaluate((el: HTMLIFrameElement) => el.contentDocument?.hasFocus())).toBe(false);

  // An email is a sketch of its own; back to a pop-up, the frame draws it again.
  await form.getByRole("radio", { name: "Email" }).check();
  await expect(frame).toHaveCount(0);
  await form.getByRole("radio", { name: "Pop-up" }).check();
  await expect(card.locator("h2")).toHaveText("A gift for you");
});

test("a list action the server refuses is undone, with the server's reason in its row", async ({
  page,
  admin,
}) => {
  const other = `Refused ${run}`;
  const admins = await api.get<{ id: number | string }[]>(`/api/apps/${api.appId}/admins`);
  await api.post<Message>(`/api/apps/${api.appId}/messages`, {
    name: other,
    kind: "chat",
    content: { sender: admins[0]!.id, body: "Hello" },
    trigger: { event: `refused_${run}` },
  });
  await logIn(page, admin);
  await page.goto("/messages");
  const row = page.getByTestId("messages-table").getByRole("row").filter({ hasText: other });
  await expect(row).toContainText("Active");
  // The server refuses the change (as it would a message another operator deleted meanwhile).
  await page.route(/\/api\/apps\/\d+\/messages\/\d+$/, (route) =>
    route.request().method() === "POST"
      ? route.fulfill({
          status: 400,
          contentType: "application/json",
          body: JSON.stringify({
            data: {},
            meta: {
              status: 400,
              error: "LookupError",
              error_message: "Message 1 does not exist in this app.",
            },
          }),
        })
      : route.fallback(),
  );
  await row.getByRole("button", { name: `Archive ${other}` }).click();
  const back = page.getByTestId("messages-table").getByRole("row").filter({ hasText: other });
  await expect(back.getByRole("alert")).toContainText(
    "Could not archive it: Message 1 does not exist in this app.",
  );
  await expect(back).toContainText("Active");
  await back.getByRole("button", { name: `Pause ${other}` }).click();
  await expect(back.getByRole("alert")).toContainText("Could not pause it");
  await expect(back).toContainText("Active");
  await expect(back.getByRole("button", { name: `Pause ${other}` })).toBeVisible();
});
