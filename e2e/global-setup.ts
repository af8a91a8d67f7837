import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { addAdmin, createAdmin } from "./support/admin";
import { writeState } from "./support/state";
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

export default async function globalSetup(_config: FullConfig) {
  ensureBuild();
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-e2e-"));
  const dataDir = path.join(tmpDir, "data");
  const admin = {
    appName: "Acme Support",
    name: "Olivia Operator",
    email: "olivia@example.test",
    password: "correct-horse-battery",
  };
  const admin2 = { name: "Bruno Backup", email: "bruno@example.test", password: "staple-battery-horse" };
  let created: ReturnType<typeof createAdmin>;
  try {
    created = createAdmin(dataDir, admin);
    if (created.appId) addAdmin(dataDir, created.appId, admin2);
  } catch (err) {
    fs.rmSync(tmpDir, { recursive: true, force: true });
    throw err;
  }

  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const logFile = path.join(tmpDir, "server.log");
  const log = fs.openSync(logFile, "a");
  // One node process (no npx/tsx wrapper), so SIGTERM reaches the server itself.
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
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

  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited !== undefined) {
      throw new Error(
        `[e2e] server exited with ${exited}:\n${fs.readFileSync(logFile, "utf8").slice(-4000)}`,
      );
    }
    try {
      const res = await fetch(`${baseURL}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new Error(
        `[e2e] server did not become healthy:\n${fs.readFileSync(logFile, "utf8").slice(-4000)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  // The operator's name as the server knows it (the CLI may derive it from the email).
  const res = await fetch(`${baseURL}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: admin.email, password: admin.password }),
  });
  const body = (await res.json().catch(() => null)) as {
    data?: { admin?: { name?: string }; apps?: { id: unknown; name: string }[] };
  } | null;
  if (!res.ok || !body?.data?.admin) {
    child.kill("SIGTERM");
    throw new Error(`[e2e] could not log in as the test operator (${res.status}): ${JSON.stringify(body)}`);
  }

  writeState({
    baseURL,
    pid: child.pid!,
    dataDir,
    tmpDir,
    admin: {
      ...admin,
      name: body.data.admin.name ?? admin.name,
      appId: created.appId ?? (body.data.apps?.[0] ? String(body.data.apps[0].id) : undefined),
    },
    ...(created.appId ? { admin2 } : {}),
    ...(created.token ? { token: created.token } : {}),
  });
  console.log(`[e2e] server on ${baseURL} (pid ${child.pid}, log ${logFile})`);
}
