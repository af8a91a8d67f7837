import { describe, expect } from "vitest";
import { makeApp, makeUser } from "../testing/factories";
import { rawRequest, type RawAnswer } from "../testing/raw-http";
import type { TestServer } from "../testing/server";
import { it } from "../testing/fixture";
import { catalog } from "../compose/catalog";
import { matchRoute } from "./route-table";
import { catalogPath } from "./rewrite";
import { DEFAULT_BODY_LIMIT } from "./params";

/**
 * Request shapes below the parameters (lib/api/fuzz.test.ts has those): odd methods, bad %-escapes, bad Host
 * headers, absolute-URI targets, chunked bodies over the limit, bytes that are not UTF-8. Sent as bytes on a socket,
 * to every path of the catalog and to the panel's pages: an answer every time, never a 5xx, the envelope under
 * /api, and no redirect off this server.
 */
let token: string;
it.beforeAll(async ({ server: s }) => {
  const a = await makeApp(s.db);
  token = a.token;
  const user = await makeUser(s.db, a.app.id);
  await s.call(`/api/users/${user.id}/startconversation`, {
    method: "POST",
    headers: { Authorization: `Token ${token}` },
    form: { body: "hello" },
  });
});

const PAGES = [
  "/",
  "/inbox",
  "/leads",
  "/leads/users/1",
  "/settings",
  "/login",
  "/docs",
  "/_next/static/x.js",
];
/** One endpoint per path and method, its parameters filled with the first objects made above. */
const ENDPOINTS = catalog.map((e) => ({ method: e.spec.method, path: `/api${e.spec.path}`, spec: e.spec }));
const PATHS = [...new Set(ENDPOINTS.map((e) => e.path.replace(/\{\w+\}/g, "1"))), ...PAGES];

interface Shape {
  method?: string;
  target: string;
  host?: string | null;
  headers?: string[];
  body?: Buffer;
}

async function send(s: TestServer, shape: Shape): Promise<RawAnswer | undefined> {
  const { method = "GET", target, host = "127.0.0.1", headers = [], body } = shape;
  const head = [
    `${method} ${target} HTTP/1.1`,
    ...(host === null ? [] : [`Host: ${host}`]),
    `Authorization: Token ${token}`,
    "Connection: close",
    ...headers,
  ].join("\r\n");
  return rawRequest(
    s.url,
    Buffer.concat([Buffer.from(`${head}\r\n\r\n`, "latin1"), body ?? Buffer.alloc(0)]),
  );
}

/** Where the request is routed: its path, whatever form its target takes. */
const routedPath = (target: string) => target.replace(/^[a-z]+:\/\/[^/]*/i, "");

/** Whether the endpoint the shape reaches declares a file as its 200 rather than the envelope. */
function answersFile(shape: Shape): boolean {
  const target = routedPath(shape.target);
  const q = target.indexOf("?");
  let found: ReturnType<typeof matchRoute>;
  try {
    found = matchRoute(catalog, catalogPath(q < 0 ? target : target.slice(0, q)).path);
  } catch {
    return false;
  }
  const e = found?.route.endpoints.get(shape.method ?? "GET");
  return [e?.spec.v1, e?.spec.v2].some((v) => v !== undefined && "contentType" in v.response);
}

async function expectAnswered(s: TestServer, shape: Shape) {
  const what = `${shape.method ?? "GET"} ${shape.target} (Host ${JSON.stringify(shape.host)})`;
  const r = await send(s, shape);
  expect(r, `${what}: no answer`).toBeDefined();
  if (!r) return;
  const api = /^\/api(\/|\?|$)/.test(routedPath(shape.target));
  // 501 is the one 5xx: a page's answer to a method no server here implements (RFC 9110 15.6.2).
  if (!(r.status === 501 && !api)) expect(r.status, `${what}: ${r.body.slice(0, 200)}`).toBeLessThan(500);
  const location = r.headers.location;
  if (location !== undefined) expect(location, `${what}: redirected`).toMatch(/^\/(?![/\\])/);
  if (!api || shape.method === "HEAD" || r.status === 204) return;
  // A successful download (the leads CSV export, the OpenAPI document) is the file itself.
  if (r.status < 300 && answersFile(shape)) return;
  expect(r.headers["content-type"], `${what}: ${r.body.slice(0, 200)}`).toMatch(/^application\/json/);
  const meta = (JSON.parse(r.body) as { meta?: { status?: number } }).meta;
  expect(meta?.status, what).toBe(r.status);
}

describe("HTTP-level request shapes", () => {
  it("odd methods", { timeout: 120_000 }, async ({ server: s }) => {
    for (const target of PATHS) {
      for (const method of [
        "TRACE",
        "PROPFIND",
        "FOO",
        "get",
        "M-SEARCH",
        "PURGE",
        "CONNECT",
        "HEAD",
        "OPTIONS",
      ])
        await expectAnswered(s, { method, target });
    }
  });

  it("bad %-escapes in paths", { timeout: 120_000 }, async ({ server: s }) => {
    const bad = ["%E0%A4%A", "%FF", "%", "%zz", "%C3%28", "%00", "%2F..%2F"];
    for (const e of ENDPOINTS) {
      for (const escape of bad)
        await expectAnswered(s, { method: e.method, target: e.path.replace(/\{\w+\}/g, escape) });
    }
    for (const page of PAGES)
      for (const escape of bad) await expectAnswered(s, { target: `${page}/${escape}` });
  });

  it("bad Host headers", { timeout: 120_000 }, async ({ server: s }) => {
    const hosts = ["a b", "[::1", "", "1.2.3.256", "x:99999", "a\u0001b", "é", "a/b", null];
    for (const target of PATHS) for (const host of hosts) await expectAnswered(s, { target, host });
  });

  it("absolute-URI and host-like targets", { timeout: 120_000 }, async ({ server: s }) => {
    for (const path of PATHS) {
      for (const target of [
        `http://evil.example${path}`,
        `https://evil.example:8443${path}?x=1`,
        `//evil.example${path}`,
        `/\\evil.example${path}`,
        `${path}/`,
        `${path}//`,
      ])
        await expectAnswered(s, { target });
    }
    for (const target of ["*", "evil.example:443", "http://evil.example", "?x=1"])
      await expectAnswered(s, { target });
  });

  it("chunked bodies over the endpoint's limit", { timeout: 120_000 }, async ({ server: s }) => {
    for (const e of ENDPOINTS.filter((x) => x.method !== "GET")) {
      const limit = e.spec.bodyLimit ?? DEFAULT_BODY_LIMIT;
      const piece = Buffer.alloc(256 * 1024, "a");
      const chunk = Buffer.concat([
        Buffer.from(`${piece.length.toString(16)}\r\n`),
        piece,
        Buffer.from("\r\n"),
      ]);
      const body = Buffer.concat([
        ...Array.from({ length: Math.ceil(limit / piece.length) + 1 }, () => chunk),
        Buffer.from("0\r\n\r\n"),
      ]);
      const type = e.spec.rawBody ? "text/csv" : "application/x-www-form-urlencoded";
      const target = e.path.replace(/\{\w+\}/g, "1") + (e.spec.rawBody ? "?merge_field=$email" : "");
      await expectAnswered(s, {
        method: e.method,
        target,
        headers: [`Content-Type: ${type}`, "Transfer-Encoding: chunked"],
        body,
      });
      const r = await send(s, {
        method: e.method,
        target,
        headers: [`Content-Type: ${type}`, "Transfer-Encoding: chunked"],
        body,
      });
      expect(r?.status, `${e.method} ${e.path}`).toBe(413);
    }
  });

  it("values that are not UTF-8", { timeout: 120_000 }, async ({ server: s }) => {
    const bodies: [string, Buffer][] = [
      ["application/x-www-form-urlencoded", Buffer.from("body=%C3%28&name=%FF")],
      ["application/x-www-form-urlencoded", Buffer.from([0x62, 0x3d, 0xff, 0xfe])],
      ["application/json", Buffer.from([0x7b, 0x22, 0x62, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])],
      [
        "multipart/form-data; boundary=b",
        Buffer.from('--b\r\nContent-Disposition: form-data; name="body"\r\n\r\n\xff\r\n--b--\r\n', "latin1"),
      ],
    ];
    for (const page of PAGES) await expectAnswered(s, { target: `${page}?name=%FF&x=%E0%A4%A` });
    for (const e of ENDPOINTS) {
      const target = e.path.replace(/\{\w+\}/g, "1");
      const r = await send(s, { method: e.method, target: `${target}?name=%FF&x=%C3%28` });
      expect(r?.status, `${e.method} ${target}`).toBe(400);
      await expectAnswered(s, { method: e.method, target: `${target}?name=%FF&x=%C3%28` });
      if (e.method === "GET") continue;
      for (const [type, body] of bodies) {
        await expectAnswered(s, {
          method: e.method,
          target,
          headers: [`Content-Type: ${type}`, `Content-Length: ${body.length}`],
          body,
        });
      }
    }
  });
});
