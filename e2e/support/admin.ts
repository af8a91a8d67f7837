import { execFileSync } from "node:child_process";
import path from "node:path";

export interface AdminSpec {
  appName: string;
  name: string;
  email: string;
  password: string;
}

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

function lastJson(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split("\n").reverse();
  for (const line of lines) {
    const t = line.trim();
    if (!t.startsWith("{")) continue;
    try {
      return JSON.parse(t) as Record<string, unknown>;
    } catch {
      // keep looking
    }
  }
  try {
    return JSON.parse(stdout) as Record<string, unknown>;
  } catch {
    return {};
  }
}

function findAppId(out: Record<string, unknown>): string | undefined {
  const data = (out.data as Record<string, unknown> | undefined) ?? out;
  const app = data.app as { id?: number | string } | undefined;
  const id = app?.id ?? (data.id as number | string | undefined);
  return id === undefined ? undefined : String(id);
}

/**
 * Creates an app and its operator in `dataDir` with the product's CLI (`app:create`); the server must not be
 * running on it: the embedded database allows one process.
 */
export function createAdmin(
  dataDir: string,
  op: AdminSpec,
  extraEnv: Record<string, string> = {},
): { appId?: string; token?: string } {
  const env = {
    ...process.env,
    ...extraEnv,
    DATA_DIR: dataDir,
    SEED_DEMO: "0",
    CHECKPOINT_DISABLE: "1",
    RELAY_ADMIN_PASSWORD: op.password,
  };
  const stdout = execFileSync(
    TSX,
    [
      path.join(ROOT, "cli", "index.ts"),
      "app:create",
      "--name",
      op.appName,
      "--admin-email",
      op.email,
      "--json",
    ],
    { cwd: ROOT, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 },
  );
  const out = lastJson(stdout);
  return { appId: findAppId(out), token: typeof out.token === "string" ? out.token : undefined };
}

/** Adds another operator to an app with the CLI (before the server starts, like createAdmin). */
export function addAdmin(
  dataDir: string,
  appId: string,
  op: Omit<AdminSpec, "appName">,
  extraEnv: Record<string, string> = {},
): void {
  const env = {
    ...process.env,
    ...extraEnv,
    DATA_DIR: dataDir,
    SEED_DEMO: "0",
    CHECKPOINT_DISABLE: "1",
    RELAY_ADMIN_PASSWORD: op.password,
  };
  execFileSync(
    TSX,
    [
      path.join(ROOT, "cli", "index.ts"),
      "admin:create",
      "--app",
      appId,
      "--email",
      op.email,
      "--name",
      op.name,
      "--json",
    ],
    { cwd: ROOT, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 },
  );
}
