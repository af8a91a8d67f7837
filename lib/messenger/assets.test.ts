import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveMessengerAsset } from "./assets";

// The messenger's files as the server answers them, from a directory of stand-in files.
let dir: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-messenger-"));
  fs.writeFileSync(path.join(dir, "messenger.js"), "console.log('loader');".repeat(20));
  fs.writeFileSync(path.join(dir, "frame.html"), "<!doctype html><title>Messenger</title>");
  fs.writeFileSync(path.join(dir, "frame.js"), "console.log('frame')");
  server = http.createServer((req, res) => {
    if (serveMessengerAsset(req, res, dir)) return;
    res.writeHead(418).end("not ours");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

// fetch() asks for gzip and decodes it; node:http shows the bytes as sent.
function get(p: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      http
        .request(base + p, { method, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        })
        .on("error", reject)
        .end();
    },
  );
}

describe("/messenger.js", () => {
  it("is JavaScript any site may load, cached briefly, with an ETag", async () => {
    const r = await get("/messenger.js");
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(r.headers["access-control-allow-origin"]).toBe("*");
    expect(r.headers["cache-control"]).toBe("public, max-age=300");
    expect(r.headers.etag).toMatch(/^"[\w-]{22}"$/);
    expect(r.body.toString()).toBe("console.log('loader');".repeat(20));
  });

  it("answers 304 to a matching If-None-Match, whichever encoding the tag was for", async () => {
    const plain = (await get("/messenger.js")).headers.etag!;
    const gz = (await get("/messenger.js", { "accept-encoding": "gzip" })).headers.etag!;
    expect(gz).toBe(plain.replace(/"$/, '-gz"'));
    for (const tag of [plain, gz, `W/${plain}`, `"other", ${plain}`]) {
      const r = await get("/messenger.js", { "if-none-match": tag });
      expect(r.status, tag).toBe(304);
      expect(r.body.length).toBe(0);
    }
    expect((await get("/messenger.js", { "if-none-match": '"other"' })).status).toBe(200);
  });

  it("is sent gzipped to clients that accept it", async () => {
    const r = await get("/messenger.js", { "accept-encoding": "gzip, br" });
    expect(r.headers["content-encoding"]).toBe("gzip");
    expect(r.headers.vary).toBe("Accept-Encoding");
    expect(gunzipSync(r.body).toString()).toBe("console.log('loader');".repeat(20));
  });

  it("answers HEAD without a body and refuses other methods", async () => {
    const head = await get("/messenger.js", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const post = await get("/messenger.js", {}, "POST");
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
  });

  it("serves a rebuilt file without a restart", async () => {
    const before = (await get("/messenger.js")).headers.etag;
    const file = path.join(dir, "messenger.js");
    fs.writeFileSync(file, "console.log('v2')");
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    // The server looks at the file again at most once a second: until then it may answer the old one.
    await expect
      .poll(async () => (await get("/messenger.js")).body.toString(), { timeout: 5000 })
      .toBe("console.log('v2')");
    expect((await get("/messenger.js")).headers.etag).not.toBe(before);
  });
});

describe("/messenger/frame.html", () => {
  it("may be framed by any site, runs only our scripts, and keeps its query", async () => {
    const r = await get("/messenger/frame.html?key=mk_abc");
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("text/html; charset=utf-8");
    const csp = r.headers["content-security-policy"]!;
    expect(csp).toContain("frame-ancestors *");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe");
    expect(r.headers["x-frame-options"]).toBeUndefined();
    expect(r.headers["cache-control"]).toBe("no-cache");
    expect(r.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("serves the frame's script", async () => {
    const r = await get("/messenger/frame.js");
    expect(r.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(r.body.toString()).toBe("console.log('frame')");
  });
});

describe("other paths and a missing build", () => {
  it.each(["/", "/messenger", "/messenger/", "/messenger/other.js", "/messenger.js/x", "/api/messenger.js"])(
    "%s is left to the next handler",
    async (p) => {
      expect((await get(p)).status).toBe(418);
    },
  );

  it("says the bundle is not built (503) rather than a bare 404", async () => {
    const r = await get("/messenger/frame.css");
    expect(r.status).toBe(503);
    expect(r.headers["cache-control"]).toBe("no-store");
    expect(r.body.toString()).toContain("npm run build");
  });
});
