import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it } from "../testing/fixture";
import { makeApp, makeSession } from "../testing/factories";

// The panel's pages as the server answers them (proxy.ts, next.config.js headers, the server's own headers).
let cookie: string;

it.beforeAll(async ({ server: s }) => {
  const a = await makeApp(s.db);
  cookie = (await makeSession(s.db, a.admin.id)).cookie;
});

const get = (s: TestServer, path: string, headers: Record<string, string> = {}) =>
  fetch(s.url + path, { redirect: "manual", headers });

describe("panel pages without a session", () => {
  it.for<[string, string]>([
    ["/inbox", "/inbox"],
    ["/inbox/", "/inbox/"],
    ["/inbox/conversation/12?tab=closed", "/inbox/conversation/12?tab=closed"],
    ["/leads", "/leads"],
    ["/leads/users/5?x=1&y=%2F", "/leads/users/5?x=1&y=%2F"],
    ["/settings", "/settings"],
    ["/settings/webhooks", "/settings/webhooks"],
  ])("%s redirects to the login page, with where to come back", async ([path, next], { server: s }) => {
    const res = await get(s, path);
    expect(res.status).toBe(307);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/login\?next=/);
    expect(new URL(location, s.url).searchParams.get("next")).toBe(next);
    expect(await res.text()).not.toContain("<html");
  });

  it("treats an unknown, malformed or deleted session as none", async ({ server: s }) => {
    const a = await makeApp(s.db);
    const gone = await makeSession(s.db, a.admin.id);
    await s.db.session.deleteMany({ where: { adminId: a.admin.id } });
    for (const c of ["relay_session=rls_nope", "relay_session=x", gone.cookie]) {
      const res = await get(s, "/inbox", { cookie: c });
      expect(res.status, c).toBe(307);
    }
  });

  it("serves the login page with its form rendered on the server", async ({ server: s }) => {
    const res = await get(s, "/login?next=%2Fleads");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<form[^>]*method="post"/i);
    expect(html).toMatch(/<input[^>]*name="next"[^>]*value="\/leads"|value="\/leads"[^>]*name="next"/);
    expect(html).toMatch(/<input[^>]*name="email"/);
    expect(html).toMatch(
      /<input[^>]*name="password"[^>]*type="password"|type="password"[^>]*name="password"/,
    );
  });
});

describe("panel pages with a session", () => {
  it("are served", async ({ server: s }) => {
    for (const path of ["/inbox", "/leads", "/settings"]) {
      const res = await get(s, path, { cookie });
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain("<html");
    }
  });
});

describe("security headers", () => {
  it.for(["/inbox", "/leads/users/1", "/settings", "/login", "/"])(
    "%s forbids framing and foreign scripts",
    async (path, { server: s }) => {
      const res = await get(s, path, { cookie });
      const csp = res.headers.get("content-security-policy") ?? "";
      const directives = new Map(
        csp.split(";").map((d) => {
          const [name = "", ...values] = d.trim().split(/\s+/);
          return [name, values] as const;
        }),
      );
      expect(directives.get("frame-ancestors")).toEqual(["'none'"]);
      expect(directives.get("default-src")).toEqual(["'self'"]);
      expect(directives.get("script-src")).toEqual(["'self'", "'unsafe-inline'"]);
      expect(directives.get("connect-src")).toEqual(["'self'"]);
      expect(directives.get("img-src")).toEqual(["'self'", "data:", "https:", "http:"]);
      expect(directives.get("object-src")).toEqual(["'none'"]);
      expect(directives.get("base-uri")).toEqual(["'self'"]);
      expect(directives.get("form-action")).toEqual(["'self'"]);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    },
  );

  it("leave API answers to the API, which are not sniffed either", async ({ server: s }) => {
    for (const path of ["/api/health", "/api/v2/no-such-endpoint", "/api/auth/me"]) {
      const res = await get(s, path);
      expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("content-security-policy"), path).toBeNull();
    }
  });
});
