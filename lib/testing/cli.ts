import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bundled } from "./bundle";

// The CLI as users run it: a child process (cli/cli.test.ts, cli/cli-guards.test.ts).
const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");
const CLI = path.join(ROOT, "cli/index.ts");

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI with `env` over this process's environment, less DATABASE_URL and RELAY_ADMIN_PASSWORD (an
 * undefined value removes a variable). `input`, when given, is written to the CLI's standard input; otherwise
 * stdin is empty (/dev/null). It runs bundled (lib/testing/bundle.ts: ~0.7 s less CPU a start than tsx, and these
 * files start it ~25 times); `via: "tsx"` starts it as `npm run cli` does, from the sources.
 */
export async function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  input?: string,
  { via = "bundle" }: { via?: "bundle" | "tsx" } = {},
): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    CHECKPOINT_DISABLE: "1",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  delete childEnv.DATABASE_URL;
  delete childEnv.RELAY_ADMIN_PASSWORD;
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete childEnv[k];
    else childEnv[k] = v;
  }
  const [cmd, first] = via === "tsx" ? [TSX, CLI] : [process.execPath, await bundled("cli/index.ts")];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, [first, ...args], {
      cwd: ROOT,
      env: childEnv,
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    if (input !== undefined) child.stdin?.end(input);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export const json = (r: Run): Record<string, unknown> => JSON.parse(r.stdout) as Record<string, unknown>;
export const jsonError = (r: Run): string => (JSON.parse(r.stderr.trim()) as { error: string }).error;
export const uniq = () => crypto.randomBytes(4).toString("hex");
export const tmpDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "relay-cli-"));
export const lockFile = (dir: string) => path.join(dir, "process.lock");
