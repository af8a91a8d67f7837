import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { addAdmin, createAdmin } from "./admin";
import { createDatabase, dropDatabase, serverDatabaseUrl } from "./databases";
import type { E2EState } from "./state";
import { freePort } from "../../lib/testing/port";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The app and operators every e2e server is made with (the CLI's app:create and admin:create). */
export const ADMIN = {
  appName: "Acme Support",
  name: "Olivia Operator",
  email: "olivia@example.test",
  password: "correct-horse-battery",
};
export const ADMIN2 = { name: "Bruno Backup", email: "bruno@example.test", password: "staple-battery-horse" };

export interface E2EServerOptions {
  /** Where the server's data directory and log go. */
  tmpDir: string;
  /** global-setup's servers: one per worker, numbered (`data<index>`, database `…_e2e<index>`). */
  index?: number;
  /** A spec's own server, named instead (`data-<name>`, database `…_e2e_<name>`). */
  name?: string;
  /** More environment for the server (not for the CLI that makes its app). */
  extraEnv?: Record<string, string>;
}

export interface E2EServer {
  child: ChildProcess;
  state: E2EState;
  logFile: string;
  /** The exit code once the server has exited (null when a signal ended it); undefined while it runs. */
  exited: () => number | null | undefined;
  /** Resolves when the process has exited. */
  exit: Promise<void>;
}

/** On PostgreSQL a named server gets a database of its own too, beside the numbered ones. */
function databaseUrlOf(key: number | string): string | undefined {
  const base = process.env.DATABASE_URL;
  if (typeof key === "number") return serverDatabaseUrl(base, key);
  const numbered = serverDatabaseUrl(base, 0);
  if (!numbered) return undefined;
  const u = new URL(numbered);
  u.pathname = u.pathname.replace(/_e2e0$/, `_e2e_${key.replace(/\W/g, "_")}`);
  return u.toString();
}

/**
 * Makes the app and its two operators with the CLI, then starts the production server over that data; it is not
 * ready yet (see whenReady).
 */
export async function launchE2EServer(opts: E2EServerOptions): Promise<E2EServer> {
  const key = opts.name ?? opts.index ?? 0;
  const suffix = typeof key === "number" ? String(key) : `-${key}`;
  const dataDir = path.join(opts.tmpDir, `data${suffix}`);
  const databaseUrl = databaseUrlOf(key);
  if (databaseUrl) await createDatabase(databaseUrl);
  const dbEnv: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
  const created = createAdmin(dataDir, ADMIN, dbEnv);
  if (created.appId) addAdmin(dataDir, created.appId, ADMIN2, dbEnv);

  const port = await freePort();
  const logFile = path.join(opts.tmpDir, `server${suffix}.log`);
  const log = fs.openSync(logFile, "a");
  // One node process (no npx/tsx wrapper), so SIGTERM reaches the server itself.
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...dbEnv,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SEED_DEMO: "0",
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      CHECKPOINT_DISABLE: "1",
      RATE_LIMIT_PER_SECOND: "10000",
      RATE_LIMIT_BURST: "10000",
      // The settings e2e points a webhook at a receiver on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE: "1",
      ...opts.extraEnv,
    },
    stdio: ["ignore", log, log],
  });
  fs.closeSync(log);
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", (code) => {
      exited = code;
      resolve();
    }),
  );
  return {
    child,
    logFile,
    exited: () => exited,
    exit,
    state: {
      baseURL: `http://127.0.0.1:${port}`,
      pid: child.pid!,
      dataDir,
      ...(databaseUrl ? { databaseUrl } : {}),
      admin: { ...ADMIN, ...(created.appId ? { appId: created.appId } : {}) },
      ...(created.appId ? { admin2: ADMIN2 } : {}),
      ...(created.token ? { token: created.token } : {}),
    },
  };
}

/** The end of the server's log, for errors. */
export const logTail = (s: E2EServer, chars = 4000) => fs.readFileSync(s.logFile, "utf8").slice(-chars);

/** Waits until the server answers /api/health, then reads the operator's name as the server knows it. */
export async function whenReady(s: E2EServer): Promise<E2EState> {
  const { baseURL } = s.state;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (s.exited() !== undefined) throw new Error(`[e2e] server exited with ${s.exited()}:\n${logTail(s)}`);
    try {
      const res = await fetch(`${baseURL}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`[e2e] server did not become healthy:\n${logTail(s)}`);
    await new Promise((r) => setTimeout(r, 250));
  }

  // The operator's name as the server knows it (the CLI may derive it from the email).
  const res = await fetch(`${baseURL}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  const body = (await res.json().catch(() => null)) as {
    data?: { admin?: { name?: string }; apps?: { id: unknown; name: string }[] };
  } | null;
  if (!res.ok || !body?.data?.admin) {
    throw new Error(`[e2e] could not log in as the test operator (${res.status}): ${JSON.stringify(body)}`);
  }
  const appId = s.state.admin.appId ?? (body.data.apps?.[0] ? String(body.data.apps[0].id) : undefined);
  s.state = {
    ...s.state,
    admin: { ...s.state.admin, name: body.data.admin.name ?? ADMIN.name, ...(appId ? { appId } : {}) },
  };
  return s.state;
}

/** A server of a spec's own: launched and ready (stopped again if it does not get ready). */
export async function startE2EServer(opts: E2EServerOptions): Promise<E2EServer> {
  const s = await launchE2EServer(opts);
  try {
    await whenReady(s);
  } catch (err) {
    await stopE2EServer(s);
    throw err;
  }
  return s;
}

/**
 * SIGTERM (the server drains and closes its database), and waits for the process to exit: SIGKILL after 20 s.
 * `removeData`: then drops its database (PostgreSQL) and removes its data directory, unless E2E_KEEP_DATA is set.
 */
export async function stopE2EServer(s: E2EServer, opts: { removeData?: boolean } = {}): Promise<void> {
  if (s.exited() === undefined) {
    s.child.kill("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), 20_000)));
    if ((await Promise.race([s.exit, late])) === "late") {
      console.warn(`[e2e] server ${s.child.pid} ignored SIGTERM for 20 s: killing it`);
      s.child.kill("SIGKILL");
      await s.exit;
    }
    clearTimeout(timer);
  }
  if (opts.removeData && !process.env.E2E_KEEP_DATA) {
    if (s.state.databaseUrl) await dropDatabase(s.state.databaseUrl);
    fs.rmSync(s.state.dataDir, { recursive: true, force: true });
  }
}
