import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { launchE2EServer, whenReady, type E2EServer } from "./support/server";
import { writeRun } from "./support/state";

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

/**
 * One server per worker, each over its own data (a data directory, or a database of its own on PostgreSQL), so
 * that spec files running side by side never meet: the suite's specs assume an app only they and the specs run
 * before them in the same worker have touched. The servers are e2e/support/server.ts's, which specs needing a
 * server of their own (other environment) start too.
 */
export default async function globalSetup(config: FullConfig) {
  ensureBuild();
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-e2e-"));
  const count = Math.max(1, config.workers);
  const started: E2EServer[] = [];
  try {
    for (let i = 0; i < count; i++) started.push(await launchE2EServer({ tmpDir, index: i }));
    const servers = await Promise.all(started.map(whenReady));
    writeRun({ tmpDir, servers });
    for (const s of servers) console.log(`[e2e] server on ${s.baseURL} (pid ${s.pid})`);
  } catch (err) {
    for (const s of started) s.child.kill("SIGTERM");
    if (!process.env.E2E_KEEP_DATA) fs.rmSync(tmpDir, { recursive: true, force: true });
    throw err;
  }
}
