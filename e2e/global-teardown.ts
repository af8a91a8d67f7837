import fs from "node:fs";
import { dropDatabase } from "./support/databases";
import { readRun, STATE_FILE } from "./support/state";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stop(pid: number): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, "SIGTERM");
  const deadline = Date.now() + 20_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) {
    console.warn(`[e2e] server ${pid} ignored SIGTERM for 20 s: killing it`);
    process.kill(pid, "SIGKILL");
  }
}

/** Stops the servers global-setup started (SIGTERM: each drains and closes its database) and removes their data. */
export default async function globalTeardown() {
  let run;
  try {
    run = readRun();
  } catch {
    return;
  }
  await Promise.all(run.servers.map((s) => stop(s.pid)));
  if (!process.env.E2E_KEEP_DATA) {
    for (const s of run.servers) if (s.databaseUrl) await dropDatabase(s.databaseUrl);
    fs.rmSync(run.tmpDir, { recursive: true, force: true });
  }
  fs.rmSync(STATE_FILE, { force: true });
}
