import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { jsonError, lockFile, runCli as cli, tmpDir, uniq } from "../lib/testing/cli";

// Refusals before the CLI touches a database: each test gives the CLI a data directory of its own.
describe("cli", { timeout: 180_000 }, () => {
  it("answers a bad command line with exit code 2, before touching the database", async () => {
    const empty = tmpDir();
    const env = { DATA_DIR: empty, DATABASE_URL: undefined };
    const cases: [string[], RegExp][] = [
      [["nope", "--json"], /unknown command "nope"/],
      [["--json"], /no command given/],
      [
        ["app:create", "--admin-email", "a@example.com", "--admin-password", "long-enough", "--json"],
        /--name is required/,
      ],
      [["token:create", "--app", "abc", "--json"], /--app must be a positive integer/],
      [["token:create", "--app", "1", "--scopes", "user-read,admin", "--json"], /unknown scope "admin"/],
      [["token:revoke", "--token", "x", "--force", "--json"], /unknown option --force/],
      [
        ["admin:create", "--app", "1", "--email", "a@example.com", "--json", "--password"],
        /--password needs a value/,
      ],
      [["token:revoke", "--token", "a", "--token", "b", "--json"], /given twice/],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(args, env)));
    runs.forEach((r, i) => {
      expect(r.code, `${cases[i]![0].join(" ")}: ${r.stderr}`).toBe(2);
      expect(jsonError(r)).toMatch(cases[i]![1]);
      expect(r.stdout).toBe("");
    });
    expect(fs.readdirSync(empty)).toEqual([]);
    const human = await cli(["token:create"], env);
    expect(human.code).toBe(2);
    expect(human.stderr).toBe(
      "error: --app is required\nusage: npm run cli -- token:create --app ID [--scopes a,b] [--name X]\n",
    );
    const help = await cli(["help"], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("token:revoke --token T");
    fs.rmSync(empty, { recursive: true, force: true });
  });

  it("refuses an embedded data directory that a live process holds, and takes over a dead one's", async () => {
    const dir = tmpDir();
    const env = { DATA_DIR: dir, DATABASE_URL: undefined };
    const args = [
      "app:create",
      "--name",
      "Locked",
      "--admin-email",
      `l-${uniq()}@example.com`,
      "--admin-password",
      "long-enough",
      "--json",
    ];
    fs.writeFileSync(lockFile(dir), String(process.pid));
    const busy = await cli(args, env);
    expect(busy.code).toBe(1);
    expect(jsonError(busy)).toBe(
      `The data directory ${dir} is in use by process ${process.pid} (a running server?). ` +
        "Stop it first, or point DATABASE_URL at a PostgreSQL server.",
    );
    expect(fs.readFileSync(lockFile(dir), "utf8")).toBe(String(process.pid));
    expect(fs.existsSync(path.join(dir, "db"))).toBe(false);

    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    fs.writeFileSync(lockFile(dir), String(dead));
    const ok = await cli(args, env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(fs.existsSync(lockFile(dir))).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
