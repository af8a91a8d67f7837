import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { apiFor, logIn, runId, type Api } from "./support/leads";
import type { Bot } from "../lib/bots/schemas";

// Bots: a lead bot made from its template from the keyboard, tried in test mode before it is saved, paused and
// resumed from the list; and a save refused for an empty step, whose error shows on that step. The worker's app is
// shared with the specs after this one, where an active bot would answer their visitors: every bot of this run is
// archived at the end.

test.describe.configure({ timeout: 120_000 });

const run = runId("bots");
let api: Api;

test.beforeAll(async ({ playwright, e2e }) => {
  const request = await playwright.request.newContext({ baseURL: e2e.baseURL });
  api = await apiFor(request, e2e.admin);
});

test.afterAll(async () => {
  const mine = (await api.get<Bot[]>(`/api/apps/${api.appId}/bots`)).filter((b) => b.name.includes(run));
  for (const b of mine) await api.post(`/api/apps/${api.appId}/bots/${b.id}`, { status: "archived" });
});

/** Presses Tab (or `key`) until `target` has the focus (never more than `max` times). */
async function tabTo(page: Page, target: Locator, max = 60, key = "Tab") {
  for (let i = 0; i < max && !(await target.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press(key);
  await expect(target).toBeFocused();
}

/** Replaces the focused field's text. */
async function retype(page: Page, text: string) {
  await page.keyboard.press("ControlOrMeta+a");
  if (text) await page.keyboard.type(text);
  else await page.keyboard.press("Backspace");
}

async function saved(name: string): Promise<Bot> {
  const b = (await api.get<Bot[]>(`/api/apps/${api.appId}/bots`)).find((x) => x.name === name);
  if (!b) throw new Error(`${name} is not listed`);
  return b;
}

/** /bots/new from the list, and a template picked: the focus is on the bot's name. */
async function startFrom(page: Page, template: string) {
  await page.goto("/bots");
  await expect(page.getByRole("heading", { level: 1, name: "Bots" })).toBeVisible();
  await tabTo(page, page.getByRole("link", { name: "New bot" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/bots\/new$/);
  await tabTo(page, page.getByRole("button", { name: `Start from ${template}` }));
  await page.keyboard.press("Enter");
  const form = page.getByRole("form", { name: "New bot" });
  await expect(form.getByLabel("Name", { exact: true })).toBeFocused();
  return form;
}

test("a lead bot from its template, edited from the keyboard, tested, saved, paused and resumed", async ({
  page,
  admin,
}) => {
  const name = `Night desk ${run}`;
  await logIn(page, admin);
  await page.goto("/bots");
  await expect(page.getByRole("link", { name: "Bots", exact: true })).toHaveAttribute("aria-current", "page");
  const form = await startFrom(page, "Lead bot");
  await retype(page, name);
  await expect(form.getByRole("radio", { name: /^Lead bot/ })).toBeChecked();
  await expect(form.getByRole("radio", { name: /^When nobody can answer/ })).toBeChecked();

  // Step 1's text, rewritten.
  const first = form.getByLabel("Text of step 1", { exact: true });
  await tabTo(page, first);
  await retype(page, "Hello! The team is away.");

  // A text step added after it: the type menu takes the focus, then the new step's text.
  await tabTo(page, form.getByRole("button", { name: "Add step after step 1", exact: true }));
  await page.keyboard.press("Enter");
  const text = form
    .getByRole("group", { name: /^Type of the new step/ })
    .getByRole("button", { name: /^Text/ });
  await expect(text).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(form.getByLabel("Text of step 2", { exact: true })).toBeFocused();
  await page.keyboard.type("We read every message.");

  // Moved up: the focus stays on the step's move buttons (Up is disabled at the top).
  await tabTo(page, form.getByRole("button", { name: "Move step 2 up" }), 10, "Shift+Tab");
  await page.keyboard.press("Enter");
  await expect(form.getByRole("button", { name: "Move step 1 down" })).toBeFocused();
  await expect(form.getByLabel("Text of step 1", { exact: true })).toHaveValue("We read every message.");
  await expect(form.getByLabel("Text of step 2", { exact: true })).toHaveValue("Hello! The team is away.");
  await expect(form.getByLabel("Question of step 3.1.1", { exact: true })).toHaveValue(
    "What is your email address?",
  );

  // Test mode runs the unsaved steps in the messenger's own frame: a button, a wrong email, a right one, a
  // company, then the hand-over.
  const test = page.getByTestId("bot-test");
  const frame = test.frameLocator("iframe");
  const thread = frame.getByRole("list", { name: "Messages" });
  await expect(thread).toContainText(/We read every message\.[\s\S]*Hello! The team is away\./);
  await frame
    .getByRole("group", { name: "Quick replies" })
    .getByRole("button", { name: "Yes, email me" })
    .click();
  const email = frame.getByRole("textbox", { name: "Your email address" });
  await expect(email).toBeFocused();
  await expect(thread).toContainText("What is your email address?");
  // Typed in the composer, an answer the field would refuse reaches the bot, which asks again.
  const composer = frame.getByRole("textbox", { name: "Message", exact: true });
  await composer.fill("not an address");
  await composer.press("Enter");
  await expect(thread).toContainText("That does not look like an email address. Could you check it?");
  await expect(email).toBeFocused();
  await page.keyboard.type("ann@example.test");
  await page.keyboard.press("Enter");
  await expect(thread).toContainText("And which company are you with?");
  await expect(frame.getByRole("textbox", { name: "Your answer" })).toBeFocused();
  await page.keyboard.type("Fjord Freight");
  await page.keyboard.press("Enter");
  await expect(thread).toContainText("Thanks! The team will see your message as soon as they are back.");
  const did = test.getByRole("log", { name: "What the bot did" });
  await expect(did).toContainText("Handed over to the team");
  await expect(did).toContainText("$email: ann@example.test · company: Fjord Freight");
  await expect(composer).toBeHidden();

  // Saved: the bot's page, and the API has the steps as edited.
  await form.getByRole("button", { name: "Create bot" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/bots\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const b = await saved(name);
  expect(b).toMatchObject({
    kind: "lead_bot",
    status: "active",
    start: { when: "no_operator" },
    sender: null,
  });
  expect(b.steps).toMatchObject([
    { type: "text", body: "We read every message." },
    { id: "hello", type: "text", body: "Hello! The team is away." },
    { id: "reach", type: "buttons" },
    { id: "done", type: "handover" },
  ]);

  // The list: active; paused and resumed by keyboard, the focus staying on the button whose label follows.
  await page.getByRole("link", { name: "← All bots" }).click();
  await expect(page).toHaveURL(/\/bots$/);
  const row = page.getByTestId("bots-table").getByRole("row").filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell").nth(0)).toHaveText("Lead bot");
  await expect(row).toContainText("Active");
  await expect(row).toContainText("When nobody can answer");
  await row.getByRole("button", { name: `Pause ${name}` }).focus();
  await page.keyboard.press("Enter");
  await expect(row).toContainText("Paused");
  await expect(row.getByRole("button", { name: `Resume ${name}` })).toBeFocused();
  await expect.poll(async () => (await saved(name)).status).toBe("paused");
  await page.keyboard.press("Enter");
  await expect(row).toContainText("Active");
  await expect.poll(async () => (await saved(name)).status).toBe("active");

  // Archived, it leaves the list for the Archived tab.
  await row.getByRole("button", { name: `Archive ${name}` }).click();
  await expect(row).toHaveCount(0);
  await page.getByRole("tab", { name: "Archived" }).click();
  await expect(page.getByTestId("bots-table").getByRole("row").filter({ hasText: name })).toContainText(
    "Archived",
  );
});

test("a save refused for an empty step shows the error on that step and keeps the edits", async ({
  page,
  admin,
}) => {
  const name = `Empty step ${run}`;
  await logIn(page, admin);
  const form = await startFrom(page, "Lead bot");
  await retype(page, name);
  await form.getByLabel("Status").selectOption("paused");

  // The only step of the second button's branch, deleted: the focus goes to that button's "Add step"; then undone.
  await form.getByRole("button", { name: "Delete step 2.2.1" }).focus();
  await page.keyboard.press("Enter");
  await expect(form.getByRole("button", { name: "Add step to button 2 of step 2" })).toBeFocused();
  await expect(form.getByLabel("Text of step 2.2.1", { exact: true })).toHaveCount(0);
  await form.getByRole("button", { name: "Undo" }).click();
  await expect(form.getByRole("group", { name: /^Step 2\.2\.1/ })).toBeFocused();
  await expect(form.getByLabel("Text of step 2.2.1", { exact: true })).toHaveValue(
    "No problem: come back to this page to see our answer.",
  );

  // The question of the second step of the first button's branch, emptied.
  const company = form.getByLabel("Question of step 2.1.2", { exact: true });
  await tabTo(page, company, 80);
  await retype(page, "");
  await tabTo(page, form.getByRole("button", { name: "Create bot" }), 200);
  await page.keyboard.press("Enter");

  await expect(company).toBeFocused();
  await expect(company).toHaveAttribute("aria-invalid", "true");
  await expect(company).toHaveAccessibleDescription(/must not be empty/);
  await expect(form.getByRole("alert").first()).toContainText("The bot was not saved");
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue(name);
  await expect(page).toHaveURL(/\/bots\/new$/);

  // Answered, the error goes; saved, the bot is paused.
  await page.keyboard.type("Which company?");
  await expect(company).not.toHaveAttribute("aria-invalid", "true");
  await form.getByRole("button", { name: "Create bot" }).click();
  await expect(page).toHaveURL(/\/bots\/\d+$/);
  expect(await saved(name)).toMatchObject({ status: "paused" });
});
