import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { listening, openConversation, post, stamp, startVisitor, twoAdmins } from "./support/inbox";

/**
 * What operators tripped over in the Inbox and Leads: a bulk job tells its assignee once, a prop created by the API
 * is pickable at once, the thread's header is one row at 1280 px.
 */

test.describe.configure({ mode: "serial" });

let ops: Awaited<ReturnType<typeof twoAdmins>> | undefined;
let a: Page;
let b: Page;
let api: APIRequestContext;

test.beforeAll(async ({ browser, playwright }) => {
  test.setTimeout(90_000);
  ops = await twoAdmins(browser, playwright);
  ({ api, a, b } = ops);
});

test.afterAll(() => ops?.close());

const item = (page: Page, text: string | RegExp) =>
  page.getByTestId("notification-item").filter({ hasText: text });

async function adminId(email: string): Promise<string> {
  const appId = ops!.e2e.admin.appId!;
  const res = await api.get(`/api/apps/${appId}/admins`);
  const list = ((await res.json()) as { data: { id: number | string; email: string }[] }).data;
  const found = list.find((x) => x.email === email);
  if (!found) throw new Error(`no operator ${email}`);
  return String(found.id);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("a note's @ list picks an operator from the keyboard, flags a mention of nobody, and tells the one named", async () => {
  test.setTimeout(90_000);
  const e2e = ops!.e2e;
  await listening(api, a, b);
  const v = await startVisitor(api, `Mention ${stamp()}`);
  await openConversation(a, v.conversation);
  await a.getByRole("radio", { name: "Note" }).click();
  const input = a.getByTestId("composer-input");
  await input.focus();

  const list = a.getByRole("listbox", { name: "Operators to mention" });
  const first = e2e.admin2.name.split(" ")[0]!;
  await input.pressSequentially(`@${first.slice(0, 3)}`);
  await expect(list).toBeVisible();
  const option = list.getByRole("option", { name: new RegExp(`^${escapeRe(e2e.admin2.name)}`) });
  await expect(option).toBeVisible();
  // The author is not offered to themself.
  await expect(list.getByRole("option", { name: new RegExp(`^${escapeRe(e2e.admin.name)}`) })).toHaveCount(0);
  await expect(list.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
  await input.press("ArrowDown");
  await input.press("ArrowUp");
  await expect(list.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
  await input.pressSequentially(first.slice(3));
  await expect(list.getByRole("option")).toHaveCount(1);
  await input.press("Enter");
  await expect(list).toBeHidden();
  await expect(input).toHaveValue(`@${e2e.admin2.name} `);

  // Escape closes the list and keeps the text and the focus.
  await input.pressSequentially("see this @");
  await expect(list).toBeVisible();
  await input.press("Escape");
  await expect(list).toBeHidden();
  await expect(input).toBeFocused();
  const nobody = `Nobody${Date.now()}`;
  await input.pressSequentially(`${nobody} too`);
  const text = `@${e2e.admin2.name} see this @${nobody} too`;
  await expect(input).toHaveValue(text);

  // A mention of nobody is flagged before sending; Enter again sends it as it is.
  await input.press("Enter");
  const warning = a.getByTestId("mention-warning");
  await expect(warning).toContainText(`@${nobody}`);
  await expect(warning).toContainText("nobody will be notified");
  await expect(input).toHaveValue(text);
  await expect(a.getByRole("list", { name: "Messages" }).getByText(text)).toHaveCount(0);
  await input.press("Enter");
  await expect(a.getByRole("list", { name: "Messages" }).getByText(text)).toBeVisible();
  await expect(warning).toBeHidden();

  // B, the one mentioned, is told live.
  await b.getByTestId("notification-bell").click();
  await expect(item(b, text)).toContainText(`${e2e.admin.name} mentioned you`);
  await b.keyboard.press("Escape");
});

test("a bulk assignment tells the assignee once for the whole job, live", async () => {
  test.setTimeout(90_000);
  const e2e = ops!.e2e;
  await listening(api, b);
  const target = await adminId(e2e.admin2.email);
  const convs = [];
  for (let k = 0; k < 4; k++) convs.push(await startVisitor(api, `Bulk ${k} ${stamp()}`));
  const job = (await post(api, `/api/apps/${e2e.admin.appId}/conversations/bulk`, {
    action: "assign",
    assignee: target,
    selection: { ids: convs.map((c) => c.conversation) },
  })) as { id: number | string };
  await expect
    .poll(async () => {
      const r = await api.get(`/api/apps/${e2e.admin.appId}/conversations/bulk/${job.id}`);
      return ((await r.json()) as { data: { status: string } }).data.status;
    })
    .toBe("done");

  // B never reloads: one notification over the socket, saying how many.
  const bell = b.getByTestId("notification-bell");
  await bell.click();
  await expect(item(b, "4 conversations were assigned to you")).toHaveCount(1);
  await expect(item(b, "assigned you a conversation")).toHaveCount(0);
  const listed = await b.request.get("/api/notifications");
  const mine = ((await listed.json()) as { data: { bulk_job: number | string | null; count: number }[] })
    .data;
  expect(mine.filter((n) => String(n.bulk_job) === String(job.id))).toEqual([
    expect.objectContaining({ count: 4 }),
  ]);
  // Opening it goes to the operator's own conversations.
  await item(b, "4 conversations were assigned to you").click();
  await expect(b).toHaveURL(/assignee=mine/);
});

test("a prop created through the API is offered by the Columns picker at once", async () => {
  test.setTimeout(60_000);
  await a.goto("/leads");
  await expect(a.getByRole("heading", { level: 1, name: "Leads" })).toBeVisible();
  const columns = a.getByRole("button", { name: /^Columns/ });
  // The catalog is loaded (and fresh for its staleTime) before the prop exists.
  await columns.click();
  await a.keyboard.press("Escape");
  const prop = `plan_${stamp().replace(/-/g, "_")}`;
  await post(api, `/api/users/${encodeURIComponent(`prop-${stamp()}`)}/props`, {
    by_user_id: true,
    operations: [{ op: "update_or_create", key: prop, value: "gold" }],
  });
  await columns.click();
  await a.getByRole("combobox", { name: "Search columns" }).fill(prop);
  await expect(a.getByRole("option", { name: prop })).toBeVisible();
  await a.keyboard.press("ArrowDown");
  await a.keyboard.press("Enter");
  await expect(columns).toHaveText(/\(\+\d+\)/);
  await a.keyboard.press("Escape");

  // The filter builder's picker, already open when the prop appears: a search that finds nothing asks again.
  await a.getByRole("button", { name: "Add condition", exact: true }).click();
  const picker = a.getByRole("combobox", { name: "Property of condition 1", exact: true });
  await picker.click();
  await expect(a.getByRole("listbox", { name: "Properties" }).getByRole("option").first()).toBeVisible();
  const later = `tier_${stamp().replace(/-/g, "_")}`;
  await post(api, `/api/users/${encodeURIComponent(`prop-${stamp()}`)}/props`, {
    by_user_id: true,
    operations: [{ op: "update_or_create", key: later, value: 3 }],
  });
  await picker.fill("");
  await picker.pressSequentially(later);
  await expect(a.getByRole("option", { name: new RegExp(`^${later}`) })).toBeVisible();
  await picker.press("ArrowDown");
  await picker.press("Enter");
  await expect(picker).toHaveValue(later);
});

test("the thread header is one row at 1280 × 800, the name and the assignee readable", async () => {
  test.setTimeout(60_000);
  const name = "Margaret Thompson";
  const userId = `header-${stamp()}`;
  await post(api, `/api/users/${encodeURIComponent(userId)}/props`, {
    by_user_id: true,
    operations: [{ op: "update_or_create", key: "$name", value: name }],
  });
  const v = await startVisitor(api, `Header ${stamp()}`, { userId });
  await a.goto("/inbox");
  await expect(a.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
  expect(a.viewportSize()).toEqual({ width: 1280, height: 800 });
  await openConversation(a, v.conversation);
  await a.getByRole("button", { name: "Assign to me" }).click();
  const header = a.getByTestId("conversation-header");
  const title = a.getByTestId("thread-name");
  await expect(title).toHaveText(name);
  const assignee = a.getByLabel("Assignee", { exact: true });
  await expect(assignee).toHaveValue(/\d+/);

  // One row: the header is one control high (plus the status line under the name), the controls share a line.
  const head = (await header.boundingBox())!;
  expect(head.height).toBeLessThanOrEqual(60);
  const close = (await a.getByRole("button", { name: "Close", exact: true }).boundingBox())!;
  const select = (await assignee.boundingBox())!;
  const more = (await a.getByRole("button", { name: /^Snooze and tags/ }).boundingBox())!;
  const nameBox = (await title.boundingBox())!;
  for (const box of [close, select, more]) expect(Math.abs(box.y - select.y)).toBeLessThan(2);
  expect(nameBox.y).toBeLessThan(select.y + select.height);
  // Nothing spills past the header's right edge: the last action is reachable.
  expect(more.x + more.width).toBeLessThanOrEqual(head.x + head.width);
  // The name is whole, not cut by an ellipsis; the assignee's name fits its select.
  expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect(await assignee.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.text ?? "")).toBe(
    ops!.e2e.admin.name,
  );

  // Snooze and tags stay reachable from the keyboard behind "⋯"; Escape hands the focus back.
  await a.getByRole("button", { name: /^Snooze and tags/ }).focus();
  await a.keyboard.press("Enter");
  await expect(a.getByLabel("Add a tag")).toBeVisible();
  await a.keyboard.press("Escape");
  await expect(a.getByLabel("Add a tag")).toBeHidden();
  await expect(a.getByRole("button", { name: /^Snooze and tags/ })).toBeFocused();

  await header.screenshot({ path: "/tmp/thread-header-1280-header.png" });
  await a.screenshot({ path: "/tmp/thread-header-1280.png" });
});

test("the team's availability shows from the Inbox and follows a teammate's change live", async () => {
  test.setTimeout(60_000);
  const e2e = ops!.e2e;
  const aId = await adminId(e2e.admin.email);
  await b.goto("/inbox");
  await expect(b.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
  const toggle = a.getByTestId("availability-toggle");
  if ((await toggle.getAttribute("data-state")) === "away") await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "true");

  const team = b.getByTestId("team-button");
  await expect(team).toHaveAccessibleName(/^Team: \d+ of \d+ available$/);
  await team.focus();
  await b.keyboard.press("Enter");
  const popover = b.getByTestId("team-popover");
  await expect(popover).toBeVisible();
  const memberA = popover.locator(`[data-testid="team-member"][data-admin-id="${aId}"]`);
  await expect(memberA).toContainText(e2e.admin.name);
  await expect(memberA).toHaveAttribute("data-state", "available");
  await expect(memberA).toContainText("Available");
  const members = (await (await api.get(`/api/apps/${e2e.admin.appId}/admins`)).json()) as {
    data: unknown[];
  };
  await expect(popover.getByTestId("team-member")).toHaveCount(members.data.length);

  // A goes Away: B's open list follows over the socket, without a reload.
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await expect(memberA).toHaveAttribute("data-state", "away", { timeout: 15_000 });
  await expect(memberA).toContainText("Away");
  await toggle.click();
  await expect(memberA).toHaveAttribute("data-state", "available", { timeout: 15_000 });
  await b.keyboard.press("Escape");
  await expect(popover).toBeHidden();
  await expect(team).toBeFocused();
});
