import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface Spawned {
  child: ChildProcess;
  output: () => string;
  /** The URL the server printed once ready. */
  ready: Promise<string>;
  exited: Promise<number | null>;
}

/** The real `server.ts` as a child process, as `npm start` runs it (port 0: it prints the one it got). */
export function spawnServer(env: Record<string, string>): Spawned {
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", REDIS_URL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (b: Buffer) => {
      out += b.toString();
      const m = /Ready on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    child.once("exit", (code) => reject(new Error(`server exited (${code}) before ready:\n${out}`)));
  });
  ready.catch(() => undefined);
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return { child, output: () => out, ready, exited };
}
