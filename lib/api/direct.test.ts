import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalog } from "../compose/catalog";
import { matchRoute } from "./route-table";
import { startTestServer, type TestServer } from "../testing/server";
import { makeApp, makeUser } from "../testing/factories";

describe("the API served from the catalog", () => {
  it("reaches every catalogued endpoint at its own path, literal segments before parameters", () => {
    for (const e of catalog) {
      const path = "/api" + e.spec.path.replace(/\{\w+\}/g, "7");
      const found = matchRoute(catalog, path);
      expect(found, `${e.spec.method} ${e.spec.path}`).toBeDefined();
      const handler = found?.route.handlers[e.spec.method] as { endpoint?: unknown } | undefined;
      expect(handler?.endpoint, `${e.spec.method} ${e.spec.path}`).toBe(e);
    }
    // Both `/users/import/{job_id}` and `/users/{id}/notes` could take this path; the literal `import` wins.
    expect(matchRoute(catalog, "/api/users/import/notes")?.params).toEqual({ job_id: "notes" });
    expect(matchRoute(catalog, "/api/users/a%20b%2Fc/notes")?.params).toEqual({ id: "a b/c" });
    expect(matchRoute(catalog, "/api/users/1/notes/2/extra")).toBeUndefined();
  });

  describe("over HTTP", () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer();
    });
    afterAll(async () => {
      await s.close();
    });

    it("decodes path parameters as Next did", async () => {
      const a = await makeApp(s.db);
      const u = await makeUser(s.db, a.app.id, { userId: "ext id/1" });
      const r = await s.call(`/api/users/${encodeURIComponent("ext id/1")}?by_user_id=true`, {
        headers: { Authorization: `Token ${a.token}` },
      });
      expect(r.status).toBe(200);
      expect((r.body.data as { id: number }).id).toBe(Number(u.id));
    });

    it("answers the next request on a connection whose body it refused unread", async () => {
      const port = new URL(s.url).port;
      const socket = net.connect(Number(port), "127.0.0.1");
      await new Promise((r) => socket.once("connect", r));
      let received = "";
      socket.on("data", (d: Buffer) => (received += d.toString()));
      const big = 12 * 1024 * 1024;
      // Declares a body far over the limit and sends only its start: the answer must not wait for the rest.
      socket.write(
        `POST /api/users/1/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${big}\r\n\r\n` +
          "{".padEnd(64 * 1024, " "),
      );
      await expect
        .poll(() => received, { timeout: 10_000 })
        .toMatch(/^HTTP\/1\.1 (401|413) [\s\S]*"meta":\{"status":(401|413)/);
      socket.destroy();
      // A fresh request after that still gets its answer.
      const again = await s.call("/api/ping");
      expect(again.status).toBe(200);
    });

    it("leaves HEAD, OPTIONS and unknown paths to Next, in the envelope", async () => {
      expect((await s.call("/api/nowhere/at/all")).body.meta.error).toBe("NotFound");
      const options = await s.call("/api/ping", { method: "OPTIONS" });
      expect(options.status).toBeLessThan(500);
      const head = await s.call("/api/ping", { method: "HEAD" });
      expect(head.status).toBe(200);
    });
  });

  it("answers as through Next's catch-all route (what next dev serves)", async () => {
    // One server at a time: a process holds one runtime (lib/server/runtime.ts).
    const shape = async (opts: { apiThroughNext?: boolean }) => {
      const t = await startTestServer({}, opts);
      try {
        const a = await makeApp(t.db);
        const u = await makeUser(t.db, a.app.id, { userId: "same" });
        const auth = { Authorization: `Token ${a.token}` };
        const got = await t.call(`/api/v1/users/same?by_user_id=true`, { headers: auth });
        const put = await t.call(`/api/users/${u.id}/events`, { method: "PUT", headers: auth });
        const bad = await t.call(`/api/users/${u.id}/events`, { method: "POST", headers: auth, json: {} });
        return {
          got: [got.status, got.headers.get("x-api-version"), Object.keys(got.body.data as object).sort()],
          put: [put.status, put.headers.get("allow"), put.body.meta.error],
          bad: [bad.status, bad.body.meta.error_fields],
        };
      } finally {
        await t.close();
      }
    };
    const direct = await shape({});
    expect(direct.got[0]).toBe(200);
    expect(direct).toEqual(await shape({ apiThroughNext: true }));
  });
});
