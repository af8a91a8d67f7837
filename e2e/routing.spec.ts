import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { openConversation, post, reply, row, stamp, startVisitor, twoAdmins } from "./support/inbox";

/** Routing chosen in Settings (round robin takes turns), and a reply that assigns an unassigned conversation. */

test.describe.configure({ mode: "serial" });

let ops: Awaited<ReturnType<typeof twoAdmins>> | undefined;

test.beforeAll(async ({ browser, playwright }) => {
  ops = await twoAdmins(browser, playwright);
});

// The app is every spec's of this worker: routing goes back off and the channel back to all operators.
test.afterAll(async () => {
  if (!ops) return;
  const appId = ops.e2e.admin.appId!;
  const channels = await getData<{ id: number | string }[]>(`/api/apps/${appId}/channels`);
  await post(ops.api, `/api/apps/${appId}/routing`, {
    routing: "off",
    routing_cap: 0,
    assign_on_reply: true,
    channel_operators: Object.fromEntries(channels.map((c) => [String(c.id), []])),
  });
  await ops.close();
});

async function getData<T>(path: string): Promise<T> {
  const res = await ops!.api.get(path);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

/** The operator of `page`, set Available in the app (routing passes over the Away). */
async function availableMe(page: Page, appId: string): Promise<string> {
  const me = (await (await page.request.get("/api/auth/me")).json()) as {
    data: { admin: { id: number }; csrf_token: string };
  };
  const res = await page.request.post(`/api/apps/${appId}/availability`, {
    headers: { "X-CSRF-Token": me.data.csrf_token },
    data: { status: "available" },
  });
  expect(res.status(), await res.text()).toBe(200);
  return String(me.data.admin.id);
}

const assigneeOf = async (id: string) =>
  (await getData<{ assignee: { id: number } | null }>(`/api/conversations/${id}`)).assignee?.id ?? null;

test("round robin chosen in Settings gives four visitors' conversations to A, B, A, B", async () => {
  test.setTimeout(120_000);
  const { a, b, api, e2e } = ops!;
  const appId = e2e.admin.appId!;
  const idA = await availableMe(a, appId);
  const idB = await availableMe(b, appId);
  const channels = await getData<{ id: number | string; name: string }[]>(`/api/apps/${appId}/channels`);
  const general = channels.find((c) => c.name === "General");
  expect(general, JSON.stringify(channels)).toBeDefined();

  // The owner picks round robin and, for General, the two operators (others of the app may be Available).
  await a.goto("/settings#operators");
  const form = a.getByRole("form", { name: "Routing" });
  const mode = form.getByLabel("Assign new conversations");
  await expect(mode).toBeVisible();
  await mode.selectOption({ label: "Round robin — take turns" });
  await expect(form.getByText("Each Available operator in turn")).toBeVisible();
  // No cap: the operators have conversations open from earlier specs.
  await form.getByLabel("Max open conversations per operator").fill("");
  const inGeneral = form.getByRole("group", { name: /^General/ });
  for (const name of [e2e.admin.name, e2e.admin2.name]) {
    const box = inGeneral.getByLabel(name, { exact: true });
    // From the keyboard: focus and Space.
    await box.focus();
    if (!(await box.isChecked())) await a.keyboard.press("Space");
    await expect(box).toBeChecked();
  }
  await expect(form.getByLabel("Assign unassigned conversations to the operator who replies")).toBeChecked();
  await form.getByRole("button", { name: "Save routing" }).click();
  await expect
    .poll(async () =>
      getData<{ routing: string; channel_operators: Record<string, number[]> }>(`/api/apps/${appId}/routing`),
    )
    .toMatchObject({
      routing: "round_robin",
      routing_cap: null,
      channel_operators: { [String(general!.id)]: [Number(idA), Number(idB)] },
    });

  const visitors = [];
  for (let k = 0; k < 4; k++) {
    visitors.push(await startVisitor(api, `Turn ${k} ${stamp()}`, { channel: String(general!.id) }));
  }
  const got = [];
  for (const v of visitors) got.push(String(await assigneeOf(v.conversation)));
  // Strict turns in operator-ID order, from the start of General's list: A was made before B.
  expect(got).toEqual([idA, idB, idA, idB]);
  // A's Inbox shows it too: their two are "You", B's two carry B's name.
  await a.goto("/inbox");
  for (const [k, v] of visitors.entries()) {
    await expect(row(a, v.conversation).getByTestId("row-assignee")).toHaveText(
      got[k] === idA ? "You" : e2e.admin2.name,
    );
  }
});

test("an operator's reply to an unassigned conversation assigns it to them in the Inbox", async () => {
  test.setTimeout(90_000);
  const { a, api, e2e } = ops!;
  const appId = e2e.admin.appId!;
  await post(api, `/api/apps/${appId}/routing`, { routing: "off" });
  const idA = await availableMe(a, appId);
  const v = await startVisitor(api, `Nobody's yet ${stamp()}`);
  await a.goto("/inbox");
  await expect(row(a, v.conversation).getByTestId("row-assignee")).toHaveText("Unassigned");
  await openConversation(a, v.conversation);
  await reply(a, `On it ${stamp()}`);
  await expect(row(a, v.conversation).getByTestId("row-assignee")).toHaveText("You");
  await expect(a.getByLabel("Assignee", { exact: true })).toHaveValue(idA);
  expect(String(await assigneeOf(v.conversation))).toBe(idA);
});
