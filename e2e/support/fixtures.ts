import { test as base, expect, type Page } from "@playwright/test";
import { readState, type E2EState } from "./state";

export interface Admin {
  name: string;
  email: string;
  password: string;
  appName: string;
}

export const test = base.extend<{ admin: Admin }, { e2e: E2EState }>({
  e2e: [async ({}, use, worker) => use(readState(worker.parallelIndex)), { scope: "worker" }],
  // The server's port is only known after global-setup.
  baseURL: async ({ e2e }, use) => use(e2e.baseURL),
  admin: async ({ e2e }, use) => use(e2e.admin),
});

export { expect };

/** Logs in through the form, as an operator would. */
export async function logInThroughForm(page: Page, op: Pick<Admin, "email" | "password">, path = "/login") {
  await page.goto(path);
  await page.getByLabel("Email").fill(op.email);
  await page.getByLabel("Password").fill(op.password);
  await page.getByLabel("Password").press("Enter");
}
