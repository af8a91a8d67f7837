import type { APIRequestContext, APIResponse, Page } from "@playwright/test";
import { expect, type Admin } from "./fixtures";

/** The Leads tests' API client: an app's API token minted through the operator's session. */
export interface Api {
  appId: string;
  get: <T>(p: string, params?: Record<string, unknown>) => Promise<T>;
  post: <T>(p: string, body: Record<string, unknown>) => Promise<T>;
  /** Sets props of a user by its own ID (`by_user_id`), creating it; answers the service's ID. */
  upsert: (userId: string, props: Record<string, unknown>) => Promise<string>;
  /** Imports a CSV (merged by $email) and waits until the job is done. */
  importCsv: (csv: string, tags?: string[]) => Promise<{ rows_imported: number; rows_failed: number }>;
}

export type Leads = { total: number; users: { id: number | string }[] };

async function unwrap<T>(r: APIResponse): Promise<T> {
  const body = (await r.json()) as { data: T };
  if (!r.ok()) throw new Error(`${r.url()}: ${r.status()} ${JSON.stringify(body)}`);
  return body.data;
}

export async function apiFor(request: APIRequestContext, op: Admin): Promise<Api> {
  const login = await request.post("/api/auth/login", { data: { email: op.email, password: op.password } });
  const me = (await login.json()) as { data: { csrf_token: string; apps: { id: number | string }[] } };
  const appId = String(me.data.apps[0]!.id);
  const key = await request.post(`/api/apps/${appId}/api_keys`, {
    headers: { "X-CSRF-Token": me.data.csrf_token },
    data: { name: `e2e leads ${Date.now()}` },
  });
  const token = ((await key.json()) as { data: { token: string } }).data.token;
  const headers = { Authorization: `Token ${token}` };
  const get = async <T>(p: string, params: Record<string, unknown> = {}) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) q.set(k, typeof v === "string" ? v : JSON.stringify(v));
    return unwrap<T>(await request.get(`${p}?${q}`, { headers }));
  };
  const post = async <T>(p: string, body: Record<string, unknown>) =>
    unwrap<T>(await request.post(p, { headers, data: body }));
  return {
    appId,
    get,
    post,
    upsert: async (userId, props) => {
      const r = await post<{ id: number | string }>(`/api/users/${encodeURIComponent(userId)}/props`, {
        by_user_id: true,
        app: appId,
        operations: Object.entries(props).map(([key, value]) => ({ op: "update_or_create", key, value })),
      });
      return String(r.id);
    },
    importCsv: async (csv, tags = []) => {
      const q = new URLSearchParams({ app: appId, merge_field: "$email" });
      if (tags.length) q.set("tags", tags.join(","));
      let job = await unwrap<{
        id: number | string;
        status: string;
        rows_imported: number;
        rows_failed: number;
      }>(
        await request.post(`/api/users/import?${q}`, {
          headers: { ...headers, "Content-Type": "text/csv" },
          data: Buffer.from(csv),
        }),
      );
      await expect
        .poll(
          async () => {
            job = await get(`/api/users/import/${job.id}`);
            return job.status;
          },
          { timeout: 180_000, intervals: [500] },
        )
        .toBe("done");
      return job;
    },
  };
}

/** Logs the page's browser context in through the API (the form itself is the auth tests' subject). */
export async function logIn(page: Page, op: Pick<Admin, "email" | "password">) {
  const res = await page.request.post("/api/auth/login", {
    data: { email: op.email, password: op.password },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

export async function openLeads(page: Page, query = "") {
  await page.goto(`/leads${query}`);
  await expect(page.getByRole("heading", { level: 1, name: "Leads" })).toBeVisible();
}

/** The leads view's URL for a filter (and other query parameters). */
export function leadsUrl(filters: unknown, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams({ filters: JSON.stringify(filters), ...extra });
  return `?${q}`;
}

export async function rowIds(page: Page): Promise<string[]> {
  return page
    .locator("tbody tr[data-lead-id]")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-lead-id")!));
}

export async function expectRows(page: Page, expected: Leads) {
  await expect(page.getByTestId("leads-total")).toHaveText(expected.total.toLocaleString("en-US"));
  await expect.poll(() => rowIds(page)).toEqual(expected.users.map((u) => String(u.id)));
}

/** A run-unique suffix, so tests sharing one server never see each other's leads. */
export const runId = (prefix: string) => `${prefix}${Date.now()}${Math.random().toString(36).slice(2, 6)}`;

/** Picks a condition's property by typing its label (as the table heads it) and clicking the option. */
export async function pickProperty(page: Page, condition: string, label: string) {
  const box = page.getByRole("combobox", { name: `Property of ${condition}`, exact: true });
  await box.fill(label);
  const exact = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\s|$)`);
  await page.getByRole("option", { name: exact }).click();
  await expect(box).toHaveValue(label);
}
