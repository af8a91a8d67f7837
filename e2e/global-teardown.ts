import fs from "node:fs";
import { readState, STATE_FILE } from "./support/state";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the server global-setup started (SIGTERM: it drains and closes the database) and removes its data. */
export default async function globalTeardown() {
  let state;
  try {
    state = readState();
  } catch {
    return;
  }
  if (alive(state.pid)) {
    process.kill(state.pid, "SIGTERM");
    const deadline = Date.now() + 20_000;
    while (alive(state.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (alive(state.pid)) {
      console.warn(`[e2e] server ${state.pid} ignored SIGTERM for 20 s: killing it`);
      process.kill(state.pid, "SIGKILL");
    }
  }
  if (!process.env.E2E_KEEP_DATA) fs.rmSync(state.tmpDir, { recursive: true, force: true });
  fs.rmSync(STATE_FILE, { force: true });
}
