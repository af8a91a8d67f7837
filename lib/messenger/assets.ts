import crypto from "node:crypto";
import fs from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { gzipSync } from "node:zlib";

/**
 * The visitors' messenger bundle (built into .messenger/ by scripts/build-messenger.mjs), served by the server in
 * front of Next: the loader on customers' sites, and the frame it embeds. Headers are set here rather than in
 * next.config.js: the frame must be framable by any site, while the panel's pages stay framable by none.
 */
export const MESSENGER_DIR = path.resolve(import.meta.dirname, "../../.messenger");

/**
 * The frame's policy: our scripts and styles only, frames by any site (it is embedded on customers' pages),
 * connections to this origin only (the visitor API and socket, next), images also from https (avatars).
 */
const FRAME_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors *",
].join("; ");

// Short: a site picks up a new loader within minutes; revalidation by ETag costs a 304.
const SHORT_CACHE = "public, max-age=300";
// A URL that names its content (`?v=` + the start of its ETag) never changes.
const IMMUTABLE = "public, max-age=31536000, immutable";
// How much of the ETag a versioned URL carries: scripts/build-messenger.mjs puts as much in the loader's.
const VERSION_LENGTH = 8;

interface Asset {
  file: string;
  headers: Record<string, string>;
  /** Asked for as `?v=<version>`: that URL is cached for good while it is the file's version. */
  versioned?: boolean;
}

// What a host page loads from us: any site may, including with `crossorigin` (error reports) or under
// Cross-Origin-Embedder-Policy.
const HOST_SCRIPT = {
  "Content-Type": "text/javascript; charset=utf-8",
  "Cache-Control": SHORT_CACHE,
  "Access-Control-Allow-Origin": "*",
  "Cross-Origin-Resource-Policy": "cross-origin",
};

const ASSETS: Record<string, Asset> = {
  "/messenger.js": { file: "messenger.js", headers: HOST_SCRIPT },
  // The launcher's unread badge and previews, loaded by the loader when there are any (messenger/news-load.ts).
  "/messenger/news.js": { file: "news.js", headers: HOST_SCRIPT, versioned: true },
  "/messenger/frame.html": {
    file: "frame.html",
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-cache",
      "Content-Security-Policy": FRAME_POLICY,
      "Referrer-Policy": "strict-origin-when-cross-origin",
    },
  },
  "/messenger/frame.js": {
    file: "frame.js",
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": SHORT_CACHE },
  },
  "/messenger/frame.css": {
    file: "frame.css",
    headers: { "Content-Type": "text/css; charset=utf-8", "Cache-Control": SHORT_CACHE },
  },
};

interface Loaded {
  mtimeMs: number;
  checkedAt: number;
  body: Buffer;
  gzip: Buffer;
  etag: string;
}

const loaded = new Map<string, Loaded>();
// A rebuild (npm run dev, a new deployment) is seen within this long without a stat per request.
const RECHECK_MS = 1000;

async function load(file: string): Promise<Loaded | undefined> {
  const now = Date.now();
  const had = loaded.get(file);
  if (had && now - had.checkedAt < RECHECK_MS) return had;
  const stat = await fs.stat(file).catch(() => undefined);
  if (!stat) {
    loaded.delete(file);
    return undefined;
  }
  if (had && had.mtimeMs === stat.mtimeMs) {
    had.checkedAt = now;
    return had;
  }
  const body = await fs.readFile(file);
  const hash = crypto.createHash("sha256").update(body).digest("base64url").slice(0, 22);
  const entry = {
    mtimeMs: stat.mtimeMs,
    checkedAt: now,
    body,
    gzip: gzipSync(body, { level: 9 }),
    etag: hash,
  };
  loaded.set(file, entry);
  return entry;
}

function answer(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body?: Buffer | string,
) {
  res.writeHead(status, headers);
  res.end(body);
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  asset: Asset,
  dir: string,
  version: string | null,
): Promise<void> {
  const got = await load(path.join(dir, asset.file));
  if (!got) {
    answer(
      res,
      503,
      { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
      "The messenger is not built on this server: run `npm run build`.\n",
    );
    return;
  }
  const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  // One tag per representation (RFC 9110 8.8.3); either one revalidates, the content being the same.
  const etag = `"${got.etag}${gzip ? "-gz" : ""}"`;
  const headers: Record<string, string> = { ...asset.headers, ETag: etag, Vary: "Accept-Encoding" };
  // Another version than the file's (a loader cached from before a deployment) gets the file, briefly cached.
  if (asset.versioned && version === got.etag.slice(0, VERSION_LENGTH)) headers["Cache-Control"] = IMMUTABLE;
  const tags = String(req.headers["if-none-match"] ?? "")
    .split(",")
    .map((t) => t.trim().replace(/^W\//, "").replace(/-gz"$/, '"'));
  if (tags.includes(`"${got.etag}"`) || tags.includes("*")) {
    answer(res, 304, headers);
    return;
  }
  const body = gzip ? got.gzip : got.body;
  if (gzip) headers["Content-Encoding"] = "gzip";
  headers["Content-Length"] = String(body.length);
  answer(res, 200, headers, req.method === "HEAD" ? undefined : body);
}

/** Answers the messenger's paths (true), or leaves the request to whoever comes next (false). */
export function serveMessengerAsset(
  req: IncomingMessage,
  res: ServerResponse,
  dir: string = MESSENGER_DIR,
): boolean {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const asset = ASSETS[q < 0 ? url : url.slice(0, q)];
  if (!asset) return false;
  if (req.method !== "GET" && req.method !== "HEAD") {
    answer(
      res,
      405,
      { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" },
      "Method Not Allowed\n",
    );
    return true;
  }
  const version = q < 0 ? null : new URLSearchParams(url.slice(q)).get("v");
  serve(req, res, asset, dir, version).catch((err: unknown) => {
    console.error(err);
    if (!res.headersSent)
      answer(res, 500, { "Content-Type": "text/plain; charset=utf-8" }, "Internal Server Error\n");
    else res.destroy();
  });
  return true;
}
