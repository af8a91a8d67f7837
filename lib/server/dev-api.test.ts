import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { catalog } from "../api/catalog";
import { createTestDb } from "../db/testing";
import { startTestServer } from "../testing/server";
import { makeApp } from "../testing/factories";
import { ROOT, startServer } from "./start";

/**
 * Issue #15: the catalog is the only router of /api, under `npm run dev` (`server.ts --dev`: Next's development
 * server, where every /api request goes through its one catch-all route file) as in production (served from the
 * catalog in front of Next). Every catalogued endpoint, and the answers no endpoint gives (404, 405, OPTIONS),
 * must come out the same from both.
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

type Call = { method: string; path: string; token?: boolean };

const calls: Call[] = [
  ...catalog.map((e) => ({ method: e.spec.method, path: "/api" + e.spec.path.replace(/\{\w+\}/g, "1") })),
  // With a token, every GET reaches its endpoint (the data is the same in both fresh databases).
  ...catalog
    .filter((e) => e.spec.method === "GET")
    .map((e) => ({ method: "GET", path: "/api" + e.spec.path.replace(/\{\w+\}/g, "1"), token: true })),
  { method: "GET", path: "/api/ping", token: true },
  { method: "GET", path: "/api/v1/ping/", token: true },
  { method: "GET", path: "/api/v1/openapi.json" },
  { method: "GET", path: "/api/nowhere/at/all" },
  { method: "DELETE", path: "/api/nowhere" },
  { method: "PUT", path: "/api/users/1/events", token: true },
  { method: "OPTIONS", path: "/api/users/1/events" },
  { method: "HEAD", path: "/api/ping" },
];

async function walk(url: string, token: string): Promise<Record<string, Answer>> {
  const out: Record<string, Answer> = {};
  for (const c of calls) {
    const headers: Record<string, string> = c.token ? { Authorization: `Token ${token}` } : {};
    const r = await fetch(url + c.path, { method: c.method, headers });
    const text = await r.text();
    let body: { data?: unknown; meta?: { error?: unknown; message?: unknown } } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // Not JSON (files, HEAD): status and headers are compared.
    }
    const data = body.data;
    out[`${c.method} ${c.path}${c.token ? " (token)" : ""}`] = {
      status: r.status,
      error: body.meta?.error,
      message: body.meta?.message,
      allow: r.headers.get("allow"),
      type: r.headers.get("content-type")?.split(";")[0],
      version: r.headers.get("x-api-version"),
      data: data && typeof data === "object" ? Object.keys(data).sort() : undefined,
    };
  }
  return out;
}

describe("npm run dev", () => {
  it(
    "answers every endpoint of the catalog as the production server does",
    { timeout: 240_000 },
    async () => {
      // One server at a time: a process holds one runtime (lib/server/runtime.ts).
      const prod = await startTestServer();
      let expected: Record<string, Answer>;
      try {
        const a = await makeApp(prod.db);
        expected = await walk(prod.url, a.token);
      } finally {
        await prod.close();
      }

      // Next's development server rewrites tsconfig.json (it adds `.next/dev/dev/types`): put back as it was.
      const tsconfig = path.join(ROOT, "tsconfig.json");
      const before = fs.readFileSync(tsconfig, "utf8");
      const db = await createTestDb();
      const dev = await startServer({
        dev: true,
        db,
        config: {
          databaseUrl: db.url,
          port: 0,
          host: "127.0.0.1",
          seedDemo: false,
          rateLimitPerSecond: 10_000,
          rateLimitBurst: 10_000,
          badTokensPerMinute: 10_000,
        },
        log: () => undefined,
      });
      try {
        const a = await makeApp(db.db);
        // The development server compiles the route on its first request.
        await fetch(`${dev.url}/api/ping`);
        const got = await walk(dev.url, a.token);
        expect(Object.values(got).filter((x) => x.status === 200).length).toBeGreaterThan(5);
        expect(got).toEqual(expected);
      } finally {
        await dev.close();
        await db.close();
        if (fs.readFileSync(tsconfig, "utf8") !== before) fs.writeFileSync(tsconfig, before);
      }
    },
  );
});
