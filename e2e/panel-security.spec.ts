import { expect, test } from "./support/fixtures";
import { apiFor, logIn, runId, type Api } from "./support/leads";

let api: Api;

test.beforeAll(async ({ playwright, e2e }) => {
  const request = await playwright.request.newContext({ baseURL: e2e.baseURL });
  api = await apiFor(request, e2e.admin);
});

test("an anonymous visit to the Inbox is redirected by the server, and logging in returns to it", async ({
  page,
  admin,
}) => {
  const res = await page.goto("/inbox");
  // The server answered /inbox with the redirect: no empty panel was served first.
  expect(res!.request().redirectedFrom()?.url()).toMatch(/\/inbox$/);
  await expect(page).toHaveURL(/\/login\?next=%2Finbox$/);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/inbox$/);
  await expect(page.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
  // The page's policy lets its socket connect to its own origin.
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-state", "connected");
});

test("without scripts, the login form is served and logs in", async ({ browser, baseURL, admin }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/leads");
  await expect(page).toHaveURL(/\/login\?next=%2Fleads$/);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fleads&problem=failed$/);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Wrong email or password.");
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/leads$/);
  expect((await context.cookies()).find((c) => c.name === "relay_session")?.httpOnly).toBe(true);
  await context.close();
});

test("a lead's javascript: avatar becomes no src or href", async ({ page, admin }) => {
  const userId = runId("av");
  const id = await api.upsert(userId, { $name: `Ava ${userId}`, $avatar: "javascript:alert(1)" });
  let dialogs = 0;
  page.on("dialog", (d) => {
    dialogs++;
    void d.dismiss();
  });
  await logIn(page, admin);
  await page.goto(`/leads/users/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: `Ava ${userId}` })).toBeVisible();
  const dangerous = page.locator(
    '[src^="javascript:" i], [href^="javascript:" i], [src*="alert(1)"], [href*="alert(1)"]',
  );
  await expect(dangerous).toHaveCount(0);
  // The initials stand in for the refused picture.
  await expect(page.locator("main img[src]")).toHaveCount(0);
  expect(dialogs).toBe(0);
});

test("a lead's avatar is loaded only when the site set it, never one from the messenger", async ({
  page,
  admin,
}) => {
  // Each load would tell the URL's owner that an operator is looking, and from where.
  const loaded: string[] = [];
  await page.route("https://avatars.e2e.test/**", (route) => {
    loaded.push(route.request().url());
    return route.fulfill({ status: 404 });
  });
  const setAvatar = async (userId: string, file: string, source?: { type: string }) => {
    const props = `/api/users/${encodeURIComponent(userId)}/props`;
    const operations = [
      { op: "update_or_create", key: "$name", value: `Ava ${userId}` },
      { op: "update_or_create", key: "$avatar", value: `https://avatars.e2e.test/${file}` },
    ];
    const r = await api.post<{ id: number | string }>(props, {
      by_user_id: true,
      app: api.appId,
      operations,
      source,
    });
    return String(r.id);
  };
  const site = runId("av-site");
  const visitor = runId("av-visitor");
  const siteId = await setAvatar(site, "site.png");
  // As stored when a visitor could set its own (visitors now cannot: the API refuses it).
  const visitorId = await setAvatar(visitor, "visitor.png", { type: "messenger" });
  await logIn(page, admin);

  await page.goto(`/leads/users/${visitorId}`);
  await expect(page.getByRole("heading", { level: 1, name: `Ava ${visitor}` })).toBeVisible();
  await expect(page.locator("main img[src]")).toHaveCount(0);

  // The site's avatar is shown, so the route above does see the panel's avatar loads.
  await page.goto(`/leads/users/${siteId}`);
  await expect(page.getByRole("heading", { level: 1, name: `Ava ${site}` })).toBeVisible();
  await expect(page.locator('main img[src="https://avatars.e2e.test/site.png"]')).toHaveCount(1);
  await expect.poll(() => loaded).toContain("https://avatars.e2e.test/site.png");
  expect(loaded.filter((u) => u.includes("visitor.png"))).toEqual([]);
});

test("a name with a right-to-left override renders isolated, without the override", async ({
  page,
  admin,
}) => {
  const userId = runId("rlo");
  // Shown raw, U+202E would turn "invoice<U+202E>fdp.exe" into "invoiceexe.pdf" and reverse what follows it.
  const name = `Eve invoice\u202Efdp.exe ${userId}`;
  const id = await api.upsert(userId, { $name: name });
  await logIn(page, admin);
  await page.goto(`/leads/users/${id}`);
  const heading = page.getByRole("heading", { level: 1 });
  const isolated = heading.locator("bdi");
  await expect(isolated).toHaveText(`Eve invoicefdp.exe ${userId}`);
  expect(await heading.evaluate((h) => h.textContent)).not.toContain("\u202E");
});
