import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "../lib/db/client";
import { serverUrl } from "../lib/db/testing";
import { SCOPES } from "../lib/auth/scopes";
import { hashToken } from "../lib/auth/tokens";
import { verifyPassword } from "../lib/auth/passwords";
import { json, jsonError, lockFile, runCli, tmpDir, uniq, type Run } from "../lib/testing/cli";

// The CLI on its own database (embedded in a temp DATA_DIR, or a fresh PostgreSQL database when the tests run
// against a server), its commands run in order on it.
const cli = (
  args: string[],
  env: Record<string, string | undefined> = {},
  input?: string,
  via?: "tsx",
): Promise<Run> => runCli(args, { ...dbEnv, ...env }, input, { via });

// Asymmetric matchers are typed `any`; as `unknown` they fit in expected objects without unsafe assignments.
const anyId: unknown = expect.any(Number);
const anyToken: unknown = expect.stringMatching(/^rly_[A-Za-z0-9_-]{20,}$/);

let dataDir: string;
let dbEnv: Record<string, string | undefined>;
let dbUrl: string;
let pgDatabase: string | undefined;
const server = serverUrl();

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dataDir = tmpDir();
  if (server) {
    pgDatabase = `relay_cli_${process.pid}_${uniq()}`;
    await adminQuery(`CREATE DATABASE "${pgDatabase}"`);
    const u = new URL(server);
    u.pathname = `/${pgDatabase}`;
    dbUrl = u.toString();
    dbEnv = { DATA_DIR: dataDir, DATABASE_URL: dbUrl };
  } else {
    dbUrl = `pglite://${dataDir}/db`;
    dbEnv = { DATA_DIR: dataDir, DATABASE_URL: undefined };
  }
});

afterAll(async () => {
  if (pgDatabase) await adminQuery(`DROP DATABASE IF EXISTS "${pgDatabase}" WITH (FORCE)`);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("cli", { timeout: 180_000 }, () => {
  let appId: number;

  it("seeds the demo on an empty database, once", async () => {
    // Through tsx, as `npm run cli` starts it; the other runs use the same sources bundled (lib/testing/cli.ts).
    const first = await cli(["demo:seed", "--json"], {}, undefined, "tsx");
    expect(first.code, first.stderr).toBe(0);
    expect(json(first)).toMatchObject({ seeded: true, admin: { email: "demo@example.com" } });
    expect(fs.existsSync(lockFile(dataDir))).toBe(false);
    const second = await cli(["demo:seed", "--json"]);
    expect(second.code, second.stderr).toBe(0);
    expect(json(second)).toEqual({ seeded: false });
  });

  it("app:create --json prints exactly the app, its owner and a token", async () => {
    const email = `owner-${uniq()}@example.com`;
    const r = await cli([
      "app:create",
      "--name",
      "Acme",
      "--admin-email",
      email,
      "--admin-password",
      "s3cret-pass",
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = json(r);
    expect(Object.keys(out)).toEqual(["app", "admin", "token"]);
    expect(out).toEqual({
      app: { id: anyId, name: "Acme" },
      admin: { id: anyId, email, name: email.split("@")[0] },
      token: anyToken,
    });
    appId = (out.app as { id: number }).id;
  });

  it("app:create without --json prints readable text with the token", async () => {
    const r = await cli([
      "app:create",
      "--name=Beta Shop",
      `--admin-email=b-${uniq()}@example.com`,
      "--admin-password=--starts-with-dashes",
      "--admin-name",
      "Bea",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Created app \d+ "Beta Shop"\.\nOwner: Bea </);
    expect(r.stdout).toMatch(/\nrly_\S+\n$/);
  });

  it("admin:create adds an operator and refuses a duplicate and bad input with exit code 1", async () => {
    const email = `op-${uniq()}@example.com`;
    const ok = await cli([
      "admin:create",
      "--app",
      String(appId),
      "--email",
      email,
      "--password",
      "operator-pw",
      "--json",
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(json(ok)).toEqual({
      admin: { id: anyId, email, name: email.split("@")[0] },
      app: { id: appId },
      created: true,
    });
    // One after another: an embedded data directory admits one process at a time.
    const dup = await cli([
      "admin:create",
      "--app",
      String(appId),
      "--email",
      email,
      "--password",
      "operator-pw",
      "--json",
    ]);
    const bad = await cli([
      "admin:create",
      "--app",
      String(appId),
      "--email",
      "nope",
      "--password",
      "operator-pw",
      "--json",
    ]);
    const noApp = await cli([
      "admin:create",
      "--app",
      "999999",
      "--email",
      `x-${uniq()}@example.com`,
      "--password",
      "operator-pw",
    ]);
    expect([dup.code, bad.code, noApp.code]).toEqual([1, 1, 1]);
    expect(jsonError(dup)).toMatch(/already an operator of app/);
    expect(jsonError(bad)).toMatch(/not a valid email address/);
    expect(noApp.stderr.trim()).toBe("error: App 999999 does not exist.");
  });

  it("takes the password from standard input or RELAY_ADMIN_PASSWORD instead of the command line", async () => {
    const piped = `piped-${uniq()}@example.com`;
    const fromEnv = `env-${uniq()}@example.com`;
    const base = ["admin:create", "--app", String(appId), "--json", "--email"];
    const a = await cli([...base, piped], {}, "from-stdin-pw\nignored second line\n");
    expect(a.code, a.stderr).toBe(0);
    const b = await cli([...base, fromEnv], { RELAY_ADMIN_PASSWORD: "from-env-pw" });
    expect(b.code, b.stderr).toBe(0);
    const none = await cli([...base, `none-${uniq()}@example.com`]);
    expect(none.code).toBe(2);
    expect(jsonError(none)).toMatch(/no password: pipe it on standard input, set RELAY_ADMIN_PASSWORD/);

    const h = await openDb(dbUrl);
    try {
      const hashOf = async (email: string) =>
        (await h.db.admin.findUniqueOrThrow({ where: { email } })).passwordHash;
      expect(await verifyPassword("from-stdin-pw", await hashOf(piped))).toBe(true);
      expect(await verifyPassword("from-env-pw", await hashOf(fromEnv))).toBe(true);
    } finally {
      await h.close();
    }
  });

  it("token:create prints a token once, which works until token:revoke", async () => {
    const created = await cli([
      "token:create",
      "--app",
      String(appId),
      "--scopes",
      "user-read, users-list",
      "--name",
      "ci",
      "--json",
    ]);
    expect(created.code, created.stderr).toBe(0);
    const kept = json(created) as { token: string; id: number; app: number; scopes: string[]; name: string };
    expect(kept).toMatchObject({ app: appId, scopes: ["user-read", "users-list"], name: "ci" });

    const other = json(await cli(["token:create", "--app", String(appId), "--json"])) as {
      token: string;
      scopes: string[];
    };
    expect(other.scopes).toEqual([...SCOPES]);
    const revoked = await cli(["token:revoke", "--token", other.token, "--json"]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(json(revoked)).toEqual({ revoked: true });
    const again = await cli(["token:revoke", "--token", other.token, "--json"]);
    expect(again.code).toBe(1);
    expect(jsonError(again)).toMatch(/unknown or already revoked/);

    // Read only, and once the CLI is done: an embedded directory is one process's at a time.
    const h = await openDb(dbUrl);
    try {
      const find = (token: string) => h.db.apiKey.findUnique({ where: { tokenHash: hashToken(token) } });
      expect(await find(kept.token)).toMatchObject({
        id: BigInt(kept.id),
        scopes: ["user-read", "users-list"],
        revokedAt: null,
      });
      expect((await find(other.token))?.revokedAt).toBeInstanceOf(Date);
    } finally {
      await h.close();
    }
  });

  it("jobs lists background jobs newest first, with their state and last error", async () => {
    const h = await openDb(dbUrl);
    try {
      await h.db.job.create({
        data: { queue: "import", status: "failed", attempts: 1, lastError: "no file" },
      });
      await h.db.job.create({ data: { queue: "bulk", status: "queued" } });
    } finally {
      await h.close();
    }
    const all = await cli(["jobs", "--json"]);
    expect(all.code, all.stderr).toBe(0);
    const listed = json(all) as unknown as { queue: string; status: string; last_error: string | null }[];
    expect(listed.slice(0, 2).map((j) => [j.queue, j.status, j.last_error])).toEqual([
      ["bulk", "queued", null],
      ["import", "failed", "no file"],
    ]);
    const failed = await cli(["jobs", "--status", "failed"]);
    expect(failed.code, failed.stderr).toBe(0);
    expect(failed.stdout).toMatch(/import {2}failed {2}attempt 1 .*last error: no file/);
    expect(failed.stdout).not.toMatch(/bulk/);
    const bad = await cli(["jobs", "--status", "stuck"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--status must be one of queued, running, done, failed/);
  });
});
