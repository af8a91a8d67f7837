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
