import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { listening, openConversation, post, row, stamp, startVisitor, twoAdmins } from "./support/inbox";

/** The list's filters and unread badges, a long thread, file attachments and the visitor sidebar. */

test.describe.configure({ mode: "serial" });

let ops: Awaited<ReturnType<typeof twoAdmins>> | undefined;
let a: Page;
let b: Page;
let api: APIRequestContext;
let appId: string;
let nameB: string;

test.beforeAll(async ({ browser, playwright }) => {
  ops = await twoAdmins(browser, playwright);
  ({ api, a, b } = ops);
  appId = ops.e2e.admin.appId!;
  nameB = ops.e2e.admin2.name;
});

test.afterAll(() => ops?.close());

async function getData<T>(path: string, params: Record<string, string | number | boolean> = {}): Promise<T> {
  const res = await api.get(path, { params });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

test("the assignee and channel filters change the list, and the URL keeps them", async () => {
  test.slow(); // many round trips on a shared machine
  const channels = await getData<{ id: number | string; name: string }[]>(`/api/apps/${appId}/channels`);
  const general = channels.find((c) => c.name === "General");
  expect(general, JSON.stringify(channels)).toBeDefined();
  const mine = await startVisitor(api, `Mine, in General ${stamp()}`, { channel: String(general!.id) });
  const theirs = await startVisitor(api, `For Bruno, no channel ${stamp()}`);
  const nobody = await startVisitor(api, `Nobody's yet ${stamp()}`, { channel: String(general!.id) });
  await a.goto("/inbox");

  await openConversation(a, mine.conversation);
  await a.getByRole("button", { name: "Assign to me" }).click();
  await expect(row(a, mine.conversation).getByTestId("row-assignee")).toHaveText("You");
  await openConversation(a, theirs.conversation);
  await a.getByLabel("Assignee", { exact: true }).selectOption({ label: nameB });
  await expect(row(a, theirs.conversation).getByTestId("row-assignee")).toHaveText(nameB);

  const shown = async (visible: string[], hidden: string[]) => {
    for (const id of visible) await expect(row(a, id)).toBeVisible();
    for (const id of hidden) await expect(row(a, id)).toHaveCount(0);
  };
  const assignee = a.getByLabel("Filter by assignee");
  const channel = a.getByLabel("Filter by channel");

  await assignee.selectOption("mine");
  await expect(a).toHaveURL(/[?&]assignee=mine/);
  await shown([mine.conversation], [theirs.conversation, nobody.conversation]);
  await assignee.selectOption("unassigned");
  await expect(a).toHaveURL(/[?&]assignee=unassigned/);
  await shown([nobody.conversation], [mine.conversation, theirs.conversation]);
  await assignee.selectOption({ label: nameB });
  await expect(a).toHaveURL(/[?&]assignee=\d+/);
  await shown([theirs.conversation], [mine.conversation, nobody.conversation]);
  await assignee.selectOption("all");
  await expect(a).not.toHaveURL(/assignee=/);
  await shown([mine.conversation, theirs.conversation, nobody.conversation], []);

  await channel.selectOption({ label: "General" });
  await expect(a).toHaveURL(new RegExp(`[?&]channel=${general!.id}`));
  await shown([mine.conversation, nobody.conversation], [theirs.conversation]);
  await channel.selectOption({ label: "No channel" });
  await expect(a).toHaveURL(/[?&]channel=0/);
  await shown([theirs.conversation], [mine.conversation, nobody.conversation]);

  // Both together, and they survive a reload.
  await assignee.selectOption("unassigned");
  await channel.selectOption({ label: "General" });
  await a.reload();
  await expect(a.getByLabel("Filter by assignee")).toHaveValue("unassigned");
  await expect(a.getByLabel("Filter by channel")).toHaveValue(String(general!.id));
  await shown([nobody.conversation], [mine.conversation, theirs.conversation]);
  await a.goto("/inbox");
});

test("a visitor's message shows an unread badge, which clears once an operator opens it", async () => {
  await a.goto("/inbox");
  await b.goto("/inbox");
  await listening(api, a, b);
  const v = await startVisitor(api, `Is anyone reading? ${stamp()}`);
  for (const page of [a, b])
    await expect(row(page, v.conversation).getByTestId("row-unread")).toContainText("1");
  await v.say(`Hello? ${stamp()}`);
  for (const page of [a, b])
    await expect(row(page, v.conversation).getByTestId("row-unread")).toContainText("2");

  await openConversation(a, v.conversation);
  for (const page of [a, b]) await expect(row(page, v.conversation).getByTestId("row-unread")).toHaveCount(0);
  const conv = await getData<{ unread_parts_count: number; read: boolean }>(
    `/api/conversations/${v.conversation}`,
  );
  expect(conv.unread_parts_count).toBe(0);
  expect(conv.read).toBe(true);

  // While it is open, new messages are read at once; the other operator's badge clears with it.
  const text = `One more thing ${stamp()}`;
  await v.say(text);
  await expect(a.getByTestId("part-user").filter({ hasText: text })).toBeVisible();
  await expect(row(b, v.conversation).getByTestId("row-preview")).toHaveText(text);
  for (const page of [a, b]) await expect(row(page, v.conversation).getByTestId("row-unread")).toHaveCount(0);
});

test("older parts of a long thread load when the operator scrolls up", async () => {
  test.slow(); // many round trips on a shared machine
  const run = stamp();
  const body = (n: number) => `Long thread ${run} #${String(n).padStart(2, "0")}`;
  const v = await startVisitor(api, body(1));
  for (let n = 2; n <= 60; n++) await v.say(body(n));

  await a.goto(`/inbox?c=${v.conversation}`);
  const part = (n: number) => a.getByTestId("part-user").filter({ hasText: body(n) });
  await expect(part(60)).toBeVisible();
  await expect(part(31)).toHaveCount(1);
  // The first page is the newest 30: the oldest are not loaded yet.
  await expect(part(1)).toHaveCount(0);
  await expect(part(30)).toHaveCount(0);

  const thread = a.getByTestId("thread");
  await thread.evaluate((el) => (el.scrollTop = 0));
  await expect(part(30)).toHaveCount(1);
  await expect(part(1)).toHaveCount(1);
  await expect(a.getByTestId("part-user").filter({ hasText: `Long thread ${run} #` })).toHaveCount(60);
  // What the operator was reading stays in view instead of jumping to the oldest part.
  await expect(part(31)).toBeInViewport();
  await part(1).scrollIntoViewIfNeeded();
  await expect(part(1)).toBeInViewport();
});

test("a file that is not an image is offered as a download", async () => {
  const v = await startVisitor(api, `Here's my export ${stamp()}`);
  const csv = `order,total\n${stamp()},42\n`;
  const res = await api.post(`/api/conversations/${v.conversation}/reply`, {
    multipart: {
      from_user: "default_user",
      attachment: { name: "orders.csv", mimeType: "text/csv", buffer: Buffer.from(csv) },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  await a.goto(`/inbox?c=${v.conversation}`);

  const link = a.getByTestId("part-user").getByTestId("attachment-file");
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute("download", "orders.csv");
  await expect(link.getByTestId("attachment-name")).toHaveText("orders.csv");
  await expect(a.getByTestId("part-user").getByTestId("attachment-image")).toHaveCount(0);
  const download = a.waitForEvent("download");
  await link.click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("orders.csv");
  const got = await a.request.get(new URL((await link.getAttribute("href"))!, a.url()).toString());
  expect(await got.text()).toBe(csv);

  // An operator's own file, through the composer, shows the same way to the other operator.
  await b.goto(`/inbox?c=${v.conversation}`);
  await listening(api, b);
  await a.getByTestId("composer-file").setInputFiles({
    name: "terms.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("Terms and conditions\n"),
  });
  await a.getByRole("button", { name: "Send" }).click();
  const theirs = b.getByTestId("part-admin").getByTestId("attachment-file");
  await expect(theirs).toHaveAttribute("download", "terms.txt");
  await expect(a.getByTestId("part-admin").getByTestId("attachment-file")).toHaveCount(1);
});

test("the sidebar shows the visitor, takes a note, lists other conversations and links to the lead", async () => {
  const userId = `sidebar-${stamp()}`;
  const name = `Sofia Sidebar ${stamp()}`;
  const email = `sofia-${stamp()}@example.test`;
  const props = await post(api, `/api/users/${userId}/props`, {
    by_user_id: true,
    operations: [
      { op: "update_or_create", key: "$name", value: name },
      { op: "update_or_create", key: "$email", value: email },
      { op: "update_or_create", key: "plan", value: "enterprise" },
    ],
  });
  const serviceId = String(props.id);
  await post(api, `/api/users/${userId}/tags`, { by_user_id: true, tag: "vip-customer" });
  const earlier = await startVisitor(api, `My first question ${stamp()}`, { userId });
  const v = await startVisitor(api, `My second question ${stamp()}`, { userId });

  await a.goto(`/inbox?c=${v.conversation}`);
  const side = a.getByTestId("visitor-sidebar");
  await expect(side).toBeVisible();
  await expect(side).toContainText(name);
  await expect(side).toContainText(email);
  await expect(side.getByText("plan", { exact: true })).toBeVisible();
  await expect(side.getByText("enterprise", { exact: true })).toBeVisible();
  await expect(side.getByText("vip-customer", { exact: true })).toBeVisible();

  const note = `Prefers email over phone ${stamp()}`;
  await side.getByLabel("New note about this visitor").fill(note);
  await side.getByRole("button", { name: "Add visitor note" }).click();
  await expect(side.getByRole("listitem").filter({ hasText: note })).toBeVisible();
  await expect(side.getByLabel("New note about this visitor")).toHaveValue("");
  const stored = await getData<{ notes: { body: string }[] }>(`/api/users/${serviceId}`, { notes: true });
  expect(stored.notes.map((n) => n.body)).toContain(note);

  const other = side.getByRole("button", { name: new RegExp(`^#${earlier.conversation} `) });
  await expect(other).toBeVisible();
  await expect(side.getByRole("button", { name: new RegExp(`^#${v.conversation} `) })).toHaveCount(0);
  await other.click();
  await expect(a).toHaveURL(new RegExp(`[?&]c=${earlier.conversation}`));
  await expect(a.getByTestId("part-user").filter({ hasText: "My first question" })).toBeVisible();

  await side.getByRole("link", { name: "Open the lead card" }).click();
  await expect(a).toHaveURL(new RegExp(`/leads/users/${serviceId}$`));
  await expect(a.getByRole("heading", { level: 1, name })).toBeVisible();
});
