import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** What global-setup hands to the tests (through E2E_* env variables and this JSON file). */
export interface E2EState {
  baseURL: string;
  pid: number;
  dataDir: string;
  tmpDir: string;
  admin: { name: string; email: string; password: string; appName: string; appId?: string };
  /** A second operator of the same app (the Inbox's two-operator tests). */
  admin2?: { name: string; email: string; password: string };
  /** An API token of the app with every scope (app:create's). */
  token?: string;
}

/**
 * Fixed per build directory, so the teardown (and a developer) can find it, and runs against different builds
 * (NEXT_DIST_DIR) can go on side by side.
 */
export const STATE_FILE = path.join(
  os.tmpdir(),
  "relay-e2e",
  `${(process.env.NEXT_DIST_DIR || ".next").replace(/[^\w.-]/g, "_")}.json`,
);

export function writeState(state: E2EState): void {
  fs.mkdirSync(path.dirname(STATE_FILE), { recursive: true });
  fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
  process.env.E2E_STATE_FILE = STATE_FILE;
  process.env.E2E_BASE_URL = state.baseURL;
  process.env.E2E_ADMIN_EMAIL = state.admin.email;
  process.env.E2E_ADMIN_PASSWORD = state.admin.password;
  process.env.E2E_ADMIN_NAME = state.admin.name;
  process.env.E2E_APP_NAME = state.admin.appName;
}

export function readState(): E2EState {
  const file = process.env.E2E_STATE_FILE ?? STATE_FILE;
  if (!fs.existsSync(file))
    throw new Error(`e2e state missing (${file}): run through playwright test (global-setup)`);
  return JSON.parse(fs.readFileSync(file, "utf8")) as E2EState;
}
