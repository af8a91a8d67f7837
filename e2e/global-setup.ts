import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { addAdmin, createAdmin } from "./support/admin";
import { createDatabase, serverDatabaseUrl } from "./support/databases";
import { writeRun, type E2EState } from "./support/state";
import { freePort } from "../lib/testing/port";

const ROOT = path.resolve(import.meta.dirname, "..");

function ensureBuild() {
  if (!fs.existsSync(path.join(ROOT, ".messenger", "messenger.js"))) {
    execFileSync(process.execPath, [path.join(ROOT, "scripts", "build-messenger.mjs")], { stdio: "inherit" });
  }
  const dist = process.env.NEXT_DIST_DIR || ".next";
  if (fs.existsSync(path.join(ROOT, dist, "BUILD_ID"))) return;
  console.log(`[e2e] no production build (${dist}/BUILD_ID): running next build`);
  execFileSync(path.join(ROOT, "node_modules", ".bin", "next"), ["build"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
}

const ADMIN = {
  appName: "Acme Support",
  name: "Olivia Operator",
  email: "olivia@example.test",
  password: "correct-horse-battery",
};
const ADMIN2 = { name: "Bruno Backup", email: "bruno@example.test", password: "staple-battery-horse" };

interface Started {
  child: ChildProcess;
  state: Omit<E2EState, "admin"> & { admin: E2EState["admin"] };
  logFile: string;
  exited: () => number | null | undefined;
}

/** Makes the app and its two operators with the CLI, then starts the production server over that data. */
async function startServer(tmpDir: string, index: number): Promise<Started> {
  const dataDir = path.join(tmpDir, `data${index}`);
  const databaseUrl = serverDatabaseUrl(process.env.DATABASE_URL, index);
  if (databaseUrl) await createDatabase(databaseUrl);
  const dbEnv: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
  const created = createAdmin(dataDir, ADMIN, dbEnv);
  if (created.appId) addAdmin(dataDir, created.appId, ADMIN2, dbEnv);

  const port = await freePort();
  const logFile = path.join(tmpDir, `server${index}.log`);
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
    },
    stdio: ["ignore", log, log],
  });
  let exited: number | null | undefined;
  child.on("exit", (code) => (exited = code));
  return {
    child,
    logFile,
    exited: () => exited,
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

async function whenReady(s: Started): Promise<E2EState> {
  const { baseURL } = s.state;
  const tail = () => fs.readFileSync(s.logFile, "utf8").slice(-4000);
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (s.exited() !== undefined) throw new Error(`[e2e] server exited with ${s.exited()}:\n${tail()}`);
    try {
      const res = await fetch(`${baseURL}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`[e2e] server did not become healthy:\n${tail()}`);
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
  return {
    ...s.state,
    admin: { ...s.state.admin, name: body.data.admin.name ?? ADMIN.name, ...(appId ? { appId } : {}) },
  };
}

/**
 * One server per worker, each over its own data (a data directory, or a database of its own on PostgreSQL), so
 * that spec files running side by side never meet: the suite's specs assume an app only they and the specs run
 * before them in the same worker have touched.
 */
export default async function globalSetup(config: FullConfig) {
  ensureBuild();
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-e2e-"));
  const count = Math.max(1, config.workers);
  const started: Started[] = [];
  try {
    for (let i = 0; i < count; i++) started.push(await startServer(tmpDir, i));
    const servers = await Promise.all(started.map(whenReady));
    writeRun({ tmpDir, servers });
    for (const s of servers) console.log(`[e2e] server on ${s.baseURL} (pid ${s.pid})`);
  } catch (err) {
    for (const s of started) s.child.kill("SIGTERM");
    if (!process.env.E2E_KEEP_DATA) fs.rmSync(tmpDir, { recursive: true, force: true });
    throw err;
  }
}
