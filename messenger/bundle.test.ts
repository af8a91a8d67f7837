import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveMessengerAsset } from "../lib/messenger/assets";

// The bundle as scripts/build-messenger.mjs builds it (into a directory of its own), served by the server's function.
// The loader's budget is docs/decisions.md's (Messenger, Budgets): 3 KB gzip, as the server sends it (level 9).
const LOADER_BUDGET = 3 * 1024;

let dir: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-bundle-"));
  await promisify(execFile)(
    process.execPath,
    [path.resolve(import.meta.dirname, "../scripts/build-messenger.mjs")],
    {
      env: { ...process.env, MESSENGER_OUT: dir },
    },
  );
  server = http.createServer((req, res) => {
    if (!serveMessengerAsset(req, res, dir)) res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}, 60_000);
afterAll(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

const read = (file: string) => fs.readFileSync(path.join(dir, file));
const gzipped = (file: string) => gzipSync(read(file), { level: 9 }).length;

describe("the messenger's bundle", () => {
  it("keeps the loader within its budget", () => {
    expect(gzipped("messenger.js")).toBeLessThanOrEqual(LOADER_BUDGET);
  });

  it("leaves the launcher's news (badge, previews) to a chunk the loader asks for by its version", async () => {
    expect(read("messenger.js").toString()).not.toContain("Dismiss message");
    expect(read("news.js").toString()).toContain("Dismiss message");
    const url = /\/messenger\/news\.js\?v=[\w-]+/.exec(read("messenger.js").toString())?.[0];
    expect(url).toBeDefined();
    // That URL is the chunk's for good; another version (a loader cached from before a deployment) gets the chunk
    // too, cached briefly.
    const current = await fetch(base + url!);
    expect(current.status).toBe(200);
    expect(current.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(current.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(current.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await current.text()).toBe(read("news.js").toString());
    for (const other of ["/messenger/news.js?v=older123", "/messenger/news.js"]) {
      const r = await fetch(base + other);
      expect(r.status, other).toBe(200);
      expect(r.headers.get("cache-control"), other).toBe("public, max-age=300");
    }
  });
});
