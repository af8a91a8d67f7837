import { describe, expect } from "vitest";
import { rawRequest, type RawAnswer } from "../testing/raw-http";
import type { TestServer } from "../testing/server";
import { it } from "../testing/fixture";

/** Requests fetch cannot send (odd targets, methods and Host headers), as bytes on a socket. */
/** `host: null` sends no Host header. */
function send(
  s: TestServer,
  target: string,
  opts: { method?: string; host?: string | null; version?: string } = {},
): Promise<RawAnswer | undefined> {
  const { method = "GET", host = "127.0.0.1", version = "1.1" } = opts;
  const hostLine = host === null ? "" : `Host: ${host}\r\n`;
  return rawRequest(s.url, `${method} ${target} HTTP/${version}\r\n${hostLine}Connection: close\r\n\r\n`);
}

function expectEnvelope(r: RawAnswer | undefined, status: number, error: string, what = "") {
  expect(r?.status, what).toBe(status);
  expect(r?.headers["content-type"]).toMatch(/^application\/json/);
  const meta = (JSON.parse(r?.body ?? "{}") as { meta: Record<string, unknown> }).meta;
  expect(meta).toMatchObject({ status, error });
  return meta;
}

/** A Location that stays on this server: a path, not `//host` or `/\host` (which browsers read as a host). */
const onSite = (s: TestServer, location: string | undefined) =>
  location === undefined || /^\/(?![/\\])/.test(location) || location.startsWith(s.url + "/");

describe("request targets", () => {
  it("routes an absolute-URI target by its path on this server, never redirecting to the host it names", async ({
    server: s,
  }) => {
    const page = await send(s, "http://evil.example/login");
    expect(page?.status).toBe(200);
    expect(page?.headers.location).toBeUndefined();
    // A panel page sends a visitor without a session to log in: on this server too.
    const panel = await send(s, "http://evil.example/inbox");
    expect(panel?.status).toBe(307);
    expect(onSite(s, panel?.headers.location), panel?.headers.location).toBe(true);
    expect(page?.headers["content-type"]).toMatch(/^text\/html/);
    const api = await send(s, "http://evil.example:8080/api/v1/ping?x=1");
    expect(api?.status).toBe(200);
    expect(api?.headers["x-api-version"]).toMatch(/^1\./);
    const root = await send(s, "https://evil.example");
    expect(root?.status).toBeLessThan(500);
    expect(onSite(s, root?.headers.location)).toBe(true);

    for (const target of [
      "//evil.example/x",
      "/\\evil.example/x",
      "///evil.example/",
      "/%2F%2Fevil.example",
      "/inbox/",
      "/inbox//",
      "http://evil.example//evil.example/x",
      "/api//evil.example",
    ]) {
      const r = await send(s, target);
      expect(r?.status, target).toBeLessThan(500);
      expect(onSite(s, r?.headers.location), `${target} → ${r?.headers.location}`).toBe(true);
    }
  });

  it("answers OPTIONS * and refuses other targets that are not paths", async ({ server: s }) => {
    const star = await send(s, "*", { method: "OPTIONS" });
    expect(star?.status).toBe(204);
    expect(star?.headers.allow).toContain("GET");
    expect((await send(s, "*"))?.status).toBe(400);
    expect((await send(s, "evil.example:443"))?.status).toBe(400);
  });

  it("refuses a path whose %-escapes are not UTF-8 with 400, in the envelope under /api", async ({
    server: s,
  }) => {
    for (const path of ["/api/users/%E0%A4%A", "/api/v1/users/%FF/notes", "/api/nowhere/%C3%28"]) {
      const meta = expectEnvelope(await send(s, path), 400, "ValidationError");
      expect(meta.error_fields).toHaveProperty("path");
    }
    for (const path of ["/inbox/%E0%A4%A", "/leads/users/%FF", "/%"]) {
      const r = await send(s, path);
      expect(r?.status, path).toBe(400);
      expect(r?.headers["content-type"], path).toMatch(/^text\/plain/);
    }
    // A well-formed escape still reaches its route, and an odd one in the query is the parameter's business.
    expect((await send(s, "/api/ping?x=%E0%A4%A"))?.status).toBe(400);
    expectEnvelope(await send(s, "/api/users/%E2%82%AC/notes"), 401, "AuthenticationFailed");
  });
});

describe("methods", () => {
  it("answers TRACE and methods no route serves with 405 and Allow under /api, 501 elsewhere; serves HEAD and OPTIONS", async ({
    server: s,
  }) => {
    for (const method of ["TRACE", "PROPFIND", "FOO", "M-SEARCH"]) {
      const r = await send(s, "/api/ping", { method });
      expectEnvelope(r, 405, "MethodNotAllowed");
      expect(r?.headers.allow, method).toBe("GET, HEAD, OPTIONS");
      const page = await send(s, "/inbox", { method });
      expect(page?.status, method).toBe(501);
    }
    const notes = await send(s, "/api/v1/users/1/notes/", { method: "FOO" });
    expectEnvelope(notes, 405, "MethodNotAllowed");
    expect(notes?.headers.allow).toBe("GET, POST, HEAD, OPTIONS");
    expectEnvelope(await send(s, "/api/nowhere", { method: "TRACE" }), 404, "NotFound");
    // CONNECT, which Node hands to a listener of its own and otherwise leaves unanswered.
    expectEnvelope(await send(s, "/api/ping", { method: "CONNECT" }), 405, "MethodNotAllowed");
    expect((await send(s, "evil.example:443", { method: "CONNECT" }))?.status).toBe(501);
    // HEAD and OPTIONS are still served.
    expect((await send(s, "/api/ping", { method: "HEAD" }))?.status).toBe(200);
    expect((await send(s, "/api/ping", { method: "OPTIONS" }))?.status).toBeLessThan(500);
    expect((await send(s, "/login", { method: "HEAD" }))?.status).toBe(200);
  });
});

describe("upgrades", () => {
  it("serves requests asking to upgrade to anything but socket.io's WebSocket as plain requests (curl --http2)", async ({
    server: s,
  }) => {
    const h2c = [
      "Connection: Upgrade, HTTP2-Settings",
      "Upgrade: h2c",
      "HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA",
    ];
    const ws = [
      "Connection: Upgrade",
      "Upgrade: websocket",
      "Sec-WebSocket-Version: 13",
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    ];
    for (const [target, headers, status] of [
      ["/api/ping", h2c, 200],
      ["/login", h2c, 200],
      ["/api/ping", h2c, 200],
      ["/api/ping", ws, 200],
      ["/api/users/%FF", h2c, 400],
    ] as const) {
      const r = await rawRequest(
        s.url,
        `GET ${target} HTTP/1.1\r\nHost: x\r\n${headers.join("\r\n")}\r\n\r\n`,
        {
          timeoutMs: 3_000,
        },
      );
      expect(r?.status, `${target} ${headers[1]}`).toBe(status);
    }
    // socket.io's own upgrade still reaches it.
    const io = await rawRequest(
      s.url,
      `GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: x\r\n${ws.join("\r\n")}\r\n\r\n`,
      {
        timeoutMs: 3_000,
      },
    );
    expect(io?.status).toBe(101);
  });
});

describe("the Host header", () => {
  it("refuses a Host that is no host name with 400 (the envelope under /api), serves names and addresses", async ({
    server: s,
  }) => {
    for (const host of ["a b", "[::1", "1.2.3.256", "x:99999", "", "a/b", "é.example", "a\tb"]) {
      const meta = expectEnvelope(await send(s, "/api/ping", { host }), 400, "ValidationError", host);
      expect(meta.error_fields, JSON.stringify(host)).toHaveProperty("host");
      expect((await send(s, "/inbox", { host }))?.status, JSON.stringify(host)).toBe(400);
    }
    // HTTP/1.1 requires one; Node's parser refuses control characters itself.
    expectEnvelope(await send(s, "/api/ping", { host: null }), 400, "ValidationError");
    expectEnvelope(await send(s, "/api/ping", { host: "a\u0001b" }), 400, "ValidationError");
    // Names, addresses and ports are served, and HTTP/1.0 without a Host.
    for (const host of ["localhost", "relay.example.com:8443", "[::1]:3000", "10.0.0.1", "relay_app"]) {
      expect((await send(s, "/api/ping", { host }))?.status, host).toBe(200);
    }
    expect((await send(s, "/api/ping", { host: null, version: "1.0" }))?.status).toBe(200);
  });
});
