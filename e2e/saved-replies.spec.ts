import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { inboxState, openInbox, post, stamp, startVisitor, tokenApi } from "./support/inbox";

/** Saved replies: written in Settings, inserted with `/` in the composer, their placeholders filled in. */

test.describe.configure({ mode: "serial" });

let context: BrowserContext;
let page: Page;
let api: APIRequestContext;
let e2e: ReturnType<typeof inboxState>;
const shortcut = `greet-${stamp()}`.toLowerCase().replace(/[^a-z0-9_-]/g, "");

test.beforeAll(async ({ browser, playwright }) => {
  e2e = inboxState();
  api = await tokenApi(playwright, e2e);
  ({ context, page } = await openInbox(browser, e2e.admin));
});

test.afterAll(async () => {
  await context.close();
  await api.dispose();
});

const composer = () => page.getByTestId("composer-input");
const listbox = () => page.getByRole("listbox", { name: "Saved replies" });

test("an operator creates a saved reply in Settings, and a taken shortcut is refused", async () => {
  await page.goto("/settings#saved-replies");
  await expect(page.getByRole("tab", { name: "Saved replies" })).toHaveAttribute("aria-selected", "true");
  const form = page.getByRole("form", { name: "New saved reply" });
  await form.getByLabel("Shortcut").fill(shortcut);
  await form.getByLabel("Title").fill("Greeting");
  await form.getByLabel("Reply").fill("Hi {{visitor_name|there}}, {{operator_name}} here. How can I help?");
  await form.getByRole("button", { name: "Add saved reply" }).click();
  const rows = page.getByRole("list", { name: "Saved replies" });
  await expect(rows.getByText(`/${shortcut}`)).toBeVisible();
  await expect(form.getByLabel("Shortcut")).toHaveValue("");

  await form.getByLabel("Shortcut").fill(shortcut);
  await form.getByLabel("Title").fill("Again");
  await form.getByLabel("Reply").fill("Twice");
  await form.getByRole("button", { name: "Add saved reply" }).click();
  await expect(form.getByText(/is taken by another saved reply/).first()).toBeVisible();
});

test("typing / in the composer lists it; Enter inserts it with the visitor's and operator's names", async () => {
  const name = `Ann Saved ${stamp()}`;
  const userId = `saved-${stamp()}`;
  await post(api, `/api/users/${userId}/props`, {
    by_user_id: true,
    operations: [{ op: "update_or_create", key: "$name", value: name }],
  });
  const v = await startVisitor(api, `Hello? ${stamp()}`, { userId });
  await page.goto(`/inbox?c=${v.conversation}`);
  await expect(page.getByTestId("thread-title")).toContainText(name);

  await composer().click();
  // A prefix of this run's shortcut alone (a repeat's or an earlier run's replies share "greet-").
  await composer().pressSequentially(`/${shortcut.slice(0, -2)}`);
  await expect(listbox()).toBeVisible();
  const option = listbox()
    .getByRole("option")
    .filter({ hasText: `/${shortcut}` });
  await expect(option).toHaveAttribute("aria-selected", "true");
  await expect(composer()).toHaveAttribute("aria-activedescendant", (await option.getAttribute("id"))!);
  // Typing on at once, as a fast operator does: the caret stays after the inserted text (it once jumped back to it
  // a frame later, into what had been typed since).
  await composer().press("Enter");
  await composer().pressSequentially(" /gr");
  const expected = `Hi ${name}, ${e2e.admin.name} here. How can I help?`;
  await expect(composer()).toHaveValue(`${expected} /gr`);
  // Escape closes the list and leaves the text as typed; Enter then sends it.
  await expect(listbox()).toBeVisible();
  await composer().press("Escape");
  await expect(listbox()).toBeHidden();
  await expect(composer()).toHaveValue(`${expected} /gr`);
  await composer().fill(expected);
  await composer().press("Enter");
  await expect(page.getByTestId("part-admin").filter({ hasText: expected })).toBeVisible();
});

test("the fallback stands in for a visitor without a name, and a slash inside a word opens nothing", async () => {
  const v = await startVisitor(api, `Anonymous ${stamp()}`);
  await page.goto(`/inbox?c=${v.conversation}`);
  await composer().click();
  await composer().pressSequentially("and/or ");
  await expect(listbox()).toBeHidden();
  await composer().fill("");
  await composer().pressSequentially(`/${shortcut}`);
  await listbox()
    .getByRole("option")
    .filter({ hasText: `/${shortcut}` })
    .click();
  await expect(composer()).toHaveValue(`Hi there, ${e2e.admin.name} here. How can I help?`);
  await expect(composer()).toBeFocused();
});
