import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { apiFor, logIn, runId, type Api } from "./support/leads";

// Many steps, each waiting on the server: a loaded machine needs more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

let api: Api;

test.beforeAll(async ({ playwright, e2e }) => {
  const request = await playwright.request.newContext({ baseURL: e2e.baseURL });
  api = await apiFor(request, e2e.admin);
});

test.beforeEach(async ({ page, admin }) => {
  await logIn(page, admin);
});

const conversationsOnCard = (page: Page) =>
  page.getByRole("region", { name: "Conversations" }).getByRole("list").getByRole("link");

/** The Inbox shows conversation `id`'s thread, with `text` in it. */
async function expectThread(page: Page, id: string, text: string) {
  await expect(page).toHaveURL(new RegExp(`/inbox\\?(.*&)?c=${id}(&|$)`));
  const messages = page.getByRole("list", { name: "Messages" });
  await expect(messages).toBeVisible();
  await expect(messages.getByTestId("part-body").filter({ hasText: text })).toHaveCount(1);
  await expect(
    page.locator(`[data-testid="conversation-row"][data-conversation-id="${id}"]`),
  ).toHaveAttribute("aria-current", "true");
}

test("a conversation on the card opens its thread in the Inbox, open, snoozed or closed", async ({
  page,
}) => {
  const userId = runId("conv");
  const id = await api.upsert(userId, { $name: `Carla ${userId}` });
  const openText = `Where is my order? ${userId}`;
  const closedText = `Thanks, all good ${userId}`;
  const closed = String(
    (await api.post<{ id: string }>(`/api/users/${id}/startconversation`, { body: closedText })).id,
  );
  await api.post(`/api/conversations/${closed}/close`, {});
  const snoozedText = `Call me next week ${userId}`;
  const snoozed = String(
    (await api.post<{ id: string }>(`/api/users/${id}/startconversation`, { body: snoozedText })).id,
  );
  await api.post(`/api/conversations/${snoozed}/delay`, {
    until: Math.floor(Date.now() / 1000) + 7 * 86_400,
  });
  const open = String(
    (await api.post<{ id: string }>(`/api/users/${id}/startconversation`, { body: openText })).id,
  );

  await page.goto(`/leads/users/${id}`);
  const links = conversationsOnCard(page);
  await expect(links).toHaveCount(3);
  await expect(links.filter({ hasText: `#${snoozed} · snoozed` })).toHaveCount(1);
  await expect(links.filter({ hasText: `#${closed} · closed` })).toHaveCount(1);
  await links.filter({ hasText: `#${open} ` }).click();
  await expectThread(page, open, openText);
  await expect(page.getByTestId("tab-open")).toHaveAttribute("aria-selected", "true");

  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/leads/users/${id}$`));
  await links.filter({ hasText: `#${snoozed} ` }).click();
  await expectThread(page, snoozed, snoozedText);
  await expect(page.getByTestId("tab-delayed")).toHaveAttribute("aria-selected", "true");

  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/leads/users/${id}$`));
  await links.filter({ hasText: `#${closed} ` }).click();
  await expectThread(page, closed, closedText);
  await expect(page.getByTestId("tab-closed")).toHaveAttribute("aria-selected", "true");
});

test("start a conversation or send a message from the card, then open it in the Inbox", async ({ page }) => {
  const userId = runId("out");
  const id = await api.upsert(userId, { $name: `Oscar ${userId}` });
  await page.goto(`/leads/users/${id}`);
  const region = page.getByRole("region", { name: "Conversations" });
  await expect(region.getByText("No conversations yet.")).toBeVisible();

  // A message from the operator.
  const mine = `Hi Oscar, your trial ends soon ${userId}`;
  await region.getByLabel("New").selectOption("sendmessage");
  await region.getByLabel("Message", { exact: true }).fill(mine);
  await region.getByRole("button", { name: "Send" }).click();
  await expect(region.getByRole("status")).toContainText("Sent.");
  await expect(conversationsOnCard(page)).toHaveCount(1);
  const convs = await api.get<{ id: string | number; parts_count: number }[]>(
    `/api/users/${id}/conversations`,
  );
  expect(convs).toHaveLength(1);
  const sent = String(convs[0]!.id);
  await region.getByRole("link", { name: "Open the conversation" }).click();
  await expect(page).toHaveURL(new RegExp(`/inbox\\?(.*&)?c=${sent}(&|$)`));
  const messages = page.getByRole("list", { name: "Messages" });
  await expect(messages.getByTestId("part-admin").filter({ hasText: mine })).toHaveCount(1);

  // A conversation as the visitor.
  await page.goto(`/leads/users/${id}`);
  const theirs = `I have a question about pricing ${userId}`;
  await region.getByLabel("New").selectOption("startconversation");
  await region.getByLabel("Message", { exact: true }).fill(theirs);
  await region.getByRole("button", { name: "Send" }).click();
  await expect(conversationsOnCard(page)).toHaveCount(2);
  await region.getByRole("link", { name: "Open the conversation" }).click();
  await expect(messages.getByTestId("part-user").filter({ hasText: theirs })).toHaveCount(1);
  const started = new URL(page.url()).searchParams.get("c");
  expect(started).not.toBe(sent);
  await expect(
    page.locator(`[data-testid="conversation-row"][data-conversation-id="${started}"]`),
  ).toHaveAttribute("aria-current", "true");
});
