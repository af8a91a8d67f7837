import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** One server of the run, as global-setup hands it to the tests of one worker. */
export interface E2EState {
  baseURL: string;
  pid: number;
  dataDir: string;
  /** The PostgreSQL database this server runs on (dropped by the teardown); none on the embedded database. */
  databaseUrl?: string;
  admin: { name: string; email: string; password: string; appName: string; appId?: string };
  /** A second operator of the same app (the Inbox's two-operator tests). */
  admin2?: { name: string; email: string; password: string };
  /** An API token of the app with every scope (app:create's). */
  token?: string;
}

/** The run: one server per Playwright worker, so workers never see each other's data, sockets or limits. */
export interface E2ERun {
  tmpDir: string;
  servers: E2EState[];
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

export function writeRun(run: E2ERun): void {
  fs.mkdirSync(path.dirname(STATE_FILE), { recursive: true });
  fs.writeFileSync(STATE_FILE, JSON.stringify(run, null, 2));
  process.env.E2E_STATE_FILE = STATE_FILE;
}

export function readRun(): E2ERun {
  const file = process.env.E2E_STATE_FILE ?? STATE_FILE;
  if (!fs.existsSync(file))
    throw new Error(`e2e state missing (${file}): run through playwright test (global-setup)`);
  return JSON.parse(fs.readFileSync(file, "utf8")) as E2ERun;
}

/** The server of a worker: the calling one's unless told (Playwright numbers them from 0 in TEST_PARALLEL_INDEX). */
export function readState(index = Number(process.env.TEST_PARALLEL_INDEX ?? 0)): E2EState {
  const { servers } = readRun();
  const server = servers[index % servers.length];
  if (!server) throw new Error("e2e state lists no server");
  return server;
}
