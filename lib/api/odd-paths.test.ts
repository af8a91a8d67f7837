import { describe, expect } from "vitest";
import { rawRequest, type RawAnswer } from "../testing/raw-http";
import { startTestServer } from "../testing/server";
import { makeApp, makeUser } from "../testing/factories";
import { it } from "../testing/fixture";
import { endpointShaped } from "./rewrite";

/**
 * Every path under /api answers in the envelope, whatever its shape (lib/api/rewrite.ts endpointShaped): empty
 * segments, backslashes and dot segments are a NotFound, never Next's 308 to another path nor its HTML page.
 * Sent as bytes: fetch would resolve dots and collapse nothing the server should see.
 */
function send(base: string, method: string, target: string, token: string): Promise<RawAnswer | undefined> {
  return rawRequest(
    base,
    `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token ${token}\r\n` +
      `Content-Length: 0\r\nConnection: close\r\n\r\n`,
  );
}

function expectNotFound(r: RawAnswer | undefined, what: string, head = false) {
  expect({ status: r?.status, location: r?.headers.location }, what).toEqual({
    status: 404,
    location: undefined,
  });
  expect(r?.headers["content-type"], what).toMatch(/^application\/json/);
  if (head) return;
  const body = JSON.parse(r?.body ?? "null") as { data: unknown; meta: Record<string, unknown> };
  expect(body.data, what).toEqual({});
  expect(body.meta, what).toMatchObject({
    status: 404,
    error: "NotFound",
    request_id: expect.any(String) as unknown,
  });
}

const ODD = (appId: bigint, userId: bigint) => [
  `/api/apps/${appId}//search?q=x`,
  "/api/apps//search",
  "/api//ping",
  "/api/v1//ping",
  "/api/v2/apps//search",
  "/api\\ping",
  `/api/apps\\${appId}\\search`,
  `/api/apps/${appId}/../${appId}/search?q=x`,
  "/api/./ping",
  "/api/ping/.",
  "/api/ping/..",
  "/api/%2E%2E/api/ping",
  `/api/users/${userId}/%2e`,
  "/api",
  "/api/",
  "/api//",
  "/api?x=1",
  "/api/v1",
];

describe("odd paths under /api", () => {
  it("answer NotFound in the envelope for every method, never a redirect or a page", async ({
    server,
    app,
  }) => {
    const u = await makeUser(server.db, app.app.id);
    for (const target of ODD(app.app.id, u.id)) {
      for (const method of ["GET", "POST", "DELETE", "OPTIONS"])
        expectNotFound(await send(server.url, method, target, app.token), `${method} ${target}`);
      expectNotFound(await send(server.url, "HEAD", target, app.token), `HEAD ${target}`, true);
    }
  });

  it("serves trailing slashes, and takes an escaped slash as part of its segment", async ({
    server,
    app,
  }) => {
    for (const target of ["/api/ping/", "/api/ping//", "/api/v1/ping/", "/api/ping?next=//x/../y"]) {
      const r = await send(server.url, "GET", target, app.token);
      expect(r?.status, target).toBe(200);
    }
    const u = await makeUser(server.db, app.app.id, { userId: "a/b" });
    const r = await send(server.url, "GET", "/api/users/a%2Fb?by_user_id=true", app.token);
    expect(r?.status).toBe(200);
    expect((JSON.parse(r?.body ?? "{}") as { data: { id: number } }).data.id).toBe(Number(u.id));
  });

  // It starts a server of its own, which on a busy machine can take a test's whole default time.
  it(
    "answer the same through Next's catch-all route (what next dev serves)",
    { timeout: 120_000 },
    async ({ server }) => {
      // One server at a time in a process (lib/server/runtime.ts): this file's own server is started already.
      await server.close();
      const t = await startTestServer({}, { apiThroughNext: true });
      try {
        const a = await makeApp(t.db);
        const u = await makeUser(t.db, a.app.id);
        for (const target of ODD(a.app.id, u.id))
          expectNotFound(await send(t.url, "GET", target, a.token), `GET ${target}`);
        expect((await send(t.url, "GET", "/api/ping/", a.token))?.status).toBe(200);
      } finally {
        await t.close();
      }
    },
  );
});

describe("endpointShaped", () => {
  it("takes the catalog's paths and refuses empty, dot and backslashed segments", () => {
    for (const ok of [
      "/api/ping",
      "/api/apps/1/search",
      "/api/users/a%2Fb",
      "/api/users/...",
      "/api/users/.x",
    ])
      expect(endpointShaped(ok), ok).toBe(true);
    for (const bad of [
      "/api",
      "/api/",
      "/api//ping",
      "/api/a//b",
      "/api/a\\b",
      "/api/./a",
      "/api/a/..",
      "/api/%2e",
    ])
      expect(endpointShaped(bad), bad).toBe(false);
  });
});
