import { test, expect } from "./support/fixtures";
import { listening, openInbox, row } from "./support/inbox";
import {
  data,
  frameOf,
  messages,
  messengerSite,
  openMessenger,
  startInFrame,
  type MessengerSite,
} from "./support/messenger";
import type { Bot, BotTemplate } from "../lib/bots/schemas";
import type { Boot } from "../lib/messenger/visitor-schemas";
import { hostPage } from "../lib/testing/host-page";

// The lead bot as a visitor meets it on a customer's site (another origin) while nobody can answer: the operator
// sets themself Away, the visitor writes, the bot asks through buttons and a field, sets $email, and hands over;
// until then the conversation is listed only with assistant_type=lead_bot, then it appears in the Inbox live.
let s: MessengerSite | undefined;
let bot: Bot | undefined;

test.beforeAll(async ({ playwright }) => {
  s = await messengerSite(playwright, (key, e2e) => ({ "/help": hostPage({ origin: e2e.baseURL, key }) }));
});
test.afterAll(async () => {
  // Archived: a later spec's visitors on this app must meet no bot.
  if (bot) await s?.api.post(`/api/v2/apps/${bot.app}/bots/${bot.id}`, { data: { status: "archived" } });
  await s?.close();
});

function site(): MessengerSite {
  if (!s) throw new Error("the site starts in beforeAll");
  return s;
}
const appId = () => site().e2e.admin.appId!;
const listed = async (q: string) =>
  (await data<{ id: number }[]>(await site().api.get(`/api/apps/${appId()}/conversations?${q}`))).map((c) =>
    String(c.id),
  );

test("with nobody available, the lead bot asks for an email through buttons and a field, sets it, and hands over to the Inbox", async ({
  page,
  browser,
}) => {
  // Two browsers, a login and a bot's turns on a busy machine.
  test.setTimeout(180_000);
  const templates = await data<BotTemplate[]>(await site().api.get(`/api/v2/apps/${appId()}/bot_templates`));
  const lead = templates.find((t) => t.key === "lead_bot")!;
  bot = await data<Bot>(
    await site().api.post(`/api/v2/apps/${appId()}/bots`, {
      data: { name: `E2E lead bot ${Date.now()}`, kind: lead.kind, start: lead.start, steps: lead.steps },
    }),
  );

  const op = await openInbox(browser, site().e2e.admin);
  const toggle = op.page.getByTestId("availability-toggle");
  try {
    await listening(site().api, op.page);
    // Nobody available: the operator steps away (the panel stays open and keeps listening).
    if ((await toggle.getAttribute("data-state")) !== "away") await toggle.click();
    await expect(toggle).toHaveAttribute("aria-checked", "false");

    const visitor = page
      .waitForResponse((r) => r.url().endsWith("/api/v2/messenger/boot") && r.request().method() === "POST")
      .then(async (r) => ((await r.json()) as { data: Boot }).data.visitor);
    const question = `Do you deliver on Sundays? ${Date.now()}`;
    const id = String(await startInFrame(page, `${site().site.url}/help`, question));

    // The bot answers at once, with buttons.
    await expect(messages(page).getByText("Can we email you when we reply?")).toBeVisible();
    expect(await listed("")).not.toContain(id);
    expect(await listed("assistant_type=lead_bot")).toContain(id);
    await expect(row(op.page, id)).toBeHidden();

    await frameOf(page).getByRole("button", { name: "Yes, email me" }).click();
    const email = frameOf(page).getByRole("textbox", { name: "Your email address" });
    await expect(email).toBeFocused();
    const address = `sunday-${Date.now()}@example.test`;
    await email.fill(address);
    await email.press("Enter");
    const company = frameOf(page).getByRole("textbox", { name: "Your answer" });
    await expect(messages(page).getByText("And which company are you with?")).toBeVisible();
    await company.fill("Sunday Parcels");
    await frameOf(page).getByRole("button", { name: "Send your answer" }).click();
    await expect(
      messages(page).getByText("Thanks! The team will see your message as soon as they are back."),
    ).toBeVisible();

    // Handed over: in the Inbox, live, with what the visitor answered.
    await expect(row(op.page, id)).toBeVisible({ timeout: 30_000 });
    await expect(row(op.page, id)).toContainText(/Sunday Parcels|The bot asked/);
    expect(await listed("assistant_type=lead_bot")).not.toContain(id);
    const user = await data<{ props: Record<string, unknown> }>(
      await site().api.get(`/api/v2/users/${(await visitor).id}`),
    );
    expect(user.props.$email).toBe(address);

    // The bot's page counts the run per step: the branch taken once, the other never.
    const stats = await op.context.newPage();
    await stats.goto(`${site().e2e.baseURL}/bots/${bot.id}`);
    const steps = stats.getByTestId("bot-steps");
    const reached = (step: string) => steps.locator(`tr[data-step="${step}"]`).getByRole("cell").first();
    for (const step of ["hello", "reach", "email", "company", "done"])
      await expect(reached(step)).toHaveText("1");
    await expect(reached("later")).toHaveText("0");
    await expect(steps.locator('tr[data-step="email"]')).toContainText("What is your email address?");
    await stats.close();
  } finally {
    if ((await toggle.getAttribute("data-state")) === "away") await toggle.click();
    await op.context.close();
  }
});

test("a launcher bot opens the visitor's New conversation before they write, as a widget_bot, and hands over", async ({
  page,
}) => {
  const templates = await data<BotTemplate[]>(await site().api.get(`/api/v2/apps/${appId()}/bot_templates`));
  const routing = templates.find((t) => t.key === "routing_bot")!;
  const first = (routing.steps as { buttons?: { label: string }[] }[])[0]!.buttons![0]!.label;
  const launcherBot = await data<Bot>(
    await site().api.post(`/api/v2/apps/${appId()}/bots`, {
      data: {
        name: `E2E launcher bot ${Date.now()}`,
        kind: routing.kind,
        start: { when: "launcher" },
        steps: routing.steps,
      },
    }),
  );
  try {
    await openMessenger(page, `${site().site.url}/help`);
    const opened = page
      .waitForResponse((r) => r.url().endsWith("/api/v2/messenger/bot_conversations"))
      .then(
        async (r) => ((await r.json()) as { data: { conversation: { id: number } } }).data.conversation.id,
      );
    await frameOf(page).getByRole("button", { name: "New conversation" }).click();
    const id = String(await opened);
    await expect(messages(page).getByText("Hi! What can we help you with?")).toBeVisible();
    expect(await listed("assistant_type=widget_bot")).toContain(id);
    expect(await listed("")).not.toContain(id);

    await frameOf(page).getByRole("button", { name: first }).click();
    await expect(
      messages(page).getByText("Thanks! Someone from the right team will be with you shortly."),
    ).toBeVisible();
    await expect.poll(() => listed("")).toContain(id);
    expect(await listed("assistant_type=widget_bot")).not.toContain(id);
  } finally {
    await site().api.post(`/api/v2/apps/${appId()}/bots/${launcherBot.id}`, { data: { status: "archived" } });
  }
});
