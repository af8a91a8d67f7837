import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { catalog } from "../compose/catalog";
import { startTestServer } from "../testing/server";
import { ROOT } from "../compose/start";

/**
 * The catalog is the only router of /api, under `npm run dev` (`server.ts --dev`: Next's development
 * server, where every /api request goes through its one catch-all route file) as in production (served from the
 * catalog in front of Next). Every catalogued endpoint, and the answers no endpoint gives (404, 405, OPTIONS),
 * must come out the same from both. Without a token most endpoints answer 401, which only they give: a path that
 * does not reach its endpoint answers 404.
 */
interface Answer {
  status: number;
  error: unknown;
  message: unknown;
  allow: string | null;
  type: string | undefined;
  version: string | null;
  data: string[] | undefined;
}

const sample = (p: string) => "/api" + p.replace(/\{\w+\}/g, "1");
const calls: { method: string; path: string }[] = [
  ...catalog.map((e) => ({ method: e.spec.method, path: sample(e.spec.path) })),
  { method: "GET", path: "/api/v1/ping/" },
  { method: "GET", path: "/api/v1/openapi.json" },
  { method: "GET", path: "/api/nowhere/at/all" },
  { method: "DELETE", path: "/api/nowhere" },
  { method: "PUT", path: "/api/users/1/events" },
  { method: "OPTIONS", path: "/api/users/1/events" },
  { method: "HEAD", path: "/api/ping" },
];

async function walk(url: string): Promise<Record<string, Answer>> {
  const out: Record<string, Answer> = {};
  for (const c of calls) {
    const r = await fetch(url + c.path, { method: c.method });
    const text = await r.text();
    let body: { data?: unknown; meta?: { error?: unknown; error_message?: unknown } } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // Not JSON (HEAD): status and headers are compared.
    }
    const data = body.data;
    out[`${c.method} ${c.path}`] = {
      status: r.status,
      error: body.meta?.error,
      message: body.meta?.error_message,
      allow: r.headers.get("allow"),
      type: r.headers.get("content-type")?.split(";")[0],
      version: r.headers.get("x-api-version"),
      data: data && typeof data === "object" ? Object.keys(data).sort() : undefined,
    };
  }
  return out;
}

/** `npm run dev` itself (`tsx server.ts --dev`) on a free port, over a database in memory. */
async function startDev(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts", "--dev"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      REDIS_URL: "",
      SEED_DEMO: "0",
      DATABASE_URL: "pglite:memory://",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (b: Buffer) => {
      out += b.toString();
      const m = /Ready on (http:\/\/[^\s"]+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    child.once("exit", (code) => reject(new Error(`dev server exited (${code}):\n${out}`)));
  });
  const exited = new Promise((r) => child.once("exit", r));
  return { url, stop: () => (child.kill("SIGTERM"), exited.then(() => undefined)) };
}

describe("npm run dev", () => {
  it(
    "answers every endpoint of the catalog as the production server does",
    { timeout: 180_000 },
    async () => {
      const prod = await startTestServer();
      let expected: Record<string, Answer>;
      try {
        expected = await walk(prod.url);
      } finally {
        await prod.close();
      }

      // Next's development server rewrites tsconfig.json (it adds `.next/dev/dev/types`): put back as it was.
      const tsconfig = path.join(ROOT, "tsconfig.json");
      const before = fs.readFileSync(tsconfig, "utf8");
      const dev = await startDev();
      try {
        // It compiles the route on its first request.
        await fetch(`${dev.url}/api/ping`);
        const got = await walk(dev.url);
        expect(got["GET /api/health"]?.status).toBe(200);
        expect(got["POST /api/users/1/webpush"]?.error).toBe("AuthenticationFailed");
        expect(got).toEqual(expected);
      } finally {
        await dev.stop();
        if (fs.readFileSync(tsconfig, "utf8") !== before) fs.writeFileSync(tsconfig, before);
      }
    },
  );
});
