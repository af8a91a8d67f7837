import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { bundled } from "./bundle";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Names server.ts bundled (lib/testing/bundle.ts), built once per test run by the vitest global setup: the test
 * files start ~25 servers, and each start through tsx costs ~1 s more CPU. Unset (the benchmarks), or for the
 * browser suite (e2e/global-setup.ts), the server starts from its sources through tsx.
 */
const BUNDLE_ENV = "RELAY_TEST_SERVER_BUNDLE";

/** For the vitest global setup: builds the server bundle and names it for the test processes. */
export async function prepareServerBundle(): Promise<void> {
  process.env[BUNDLE_ENV] = await bundled("server.ts");
}

const OUTPUT_KEPT = 1_000_000;

export interface Spawned {
  child: ChildProcess;
  output: () => string;
  /** The URL the server printed once ready. */
  ready: Promise<string>;
  exited: Promise<number | null>;
}

/** The real `server.ts` as a child process, as `npm start` runs it (port 0: it prints the one it got). */
export function spawnServer(env: Record<string, string>): Spawned {
  const bundle = process.env[BUNDLE_ENV];
  const child = spawn(process.execPath, bundle ? [bundle] : ["--import", "tsx", "server.ts"], {
    cwd: ROOT,
    env: { ...process.env, [BUNDLE_ENV]: "", PORT: "0", HOST: "127.0.0.1", REDIS_URL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (b: Buffer) => {
      // The last of it: a server under load writes a line per request.
      out = (out.length > OUTPUT_KEPT ? out.slice(-OUTPUT_KEPT / 2) : out) + b.toString();
      const m = /Ready on (http:\/\/[^\s"]+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    child.once("exit", (code) => reject(new Error(`server exited (${code}) before ready:\n${out}`)));
  });
  ready.catch(() => undefined);
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return { child, output: () => out, ready, exited };
}
