import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ConfigError, parseEnv } from "../lib/config/env";

// `npm start`: build once if there is no production build (or messenger bundle) yet, then run the server (which
// migrates and seeds). A bad environment is refused before the build, not a minute later by the server.
const env = (() => {
  try {
    return parseEnv();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
})();
const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, env.NEXT_DIST_DIR);
process.env.NEXT_TELEMETRY_DISABLED = "1";
process.env.CHECKPOINT_DISABLE = "1";

if (!fs.existsSync(path.join(dist, "BUILD_ID"))) {
  console.log("No production build yet: building (about a minute, once)…");
  const r = spawnSync("npx", ["next", "build"], { cwd: root, stdio: "inherit", env: process.env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
if (!fs.existsSync(path.join(root, ".messenger", "messenger.js"))) {
  const r = spawnSync(process.execPath, [path.join(root, "scripts", "build-messenger.mjs")], {
    stdio: "inherit",
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
await import("../server");
