import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { jsonError, runCli } from "../testing/cli";
import { spawnServer } from "../testing/spawn";

/** Each process gets a data directory of its own, which must stay empty: nothing is opened before the check. */
const dirs: string[] = [];
const emptyDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-env-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const BAD = { PORT: "abc", SEED_DEMO: "maybe" };
const NAMED = [
  'PORT: "abc" is not a whole number between 0 and 65535',
  'SEED_DEMO: "maybe" is not yes (1, true, yes, on) or no (0, false, no, off, empty)',
];

describe("a bad environment", { timeout: 120_000 }, () => {
  it("stops the server before it opens anything, naming every bad variable, without a stack trace", async () => {
    const dir = emptyDir();
    const s = spawnServer({ ...BAD, DATA_DIR: dir, DATABASE_URL: "" });
    expect(await s.exited, s.output()).toBe(1);
    expect(s.output()).toBe(`Invalid environment:\n  ${NAMED.join("\n  ")}\n`);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("stops `npm start` before it builds", async () => {
    const dir = emptyDir();
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      // A build directory that does not exist: past the check, the script would start a build.
      env: { ...process.env, ...BAD, DATA_DIR: dir, NEXT_DIST_DIR: path.join(dir, "no-build") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    const code = await new Promise<number | null>((r) => child.once("exit", r));
    expect(code, stdout + stderr).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(`Invalid environment:\n  ${NAMED.join("\n  ")}\n`);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("stops the CLI before it asks for a password or opens the database (exit code 1)", async () => {
    const dir = emptyDir();
    const args = ["app:create", "--name", "Acme", "--admin-email", "ann@example.com", "--json"];
    const r = await runCli(args, { ...BAD, DATA_DIR: dir }, "long-enough\n");
    expect(r.code, r.stderr).toBe(1);
    expect(jsonError(r)).toBe(`Invalid environment: ${NAMED.join("; ")}`);
    expect(r.stdout).toBe("");
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
