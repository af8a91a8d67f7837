import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { makeAdmin, makeSession, makeToken, TEST_PASSWORD } from "../testing/factories";
import { revokeApiKeyBy } from "../auth/tokens";

const channels = (app: bigint | string) => `/api/apps/${app}/channels`;

describe("authentication", () => {
  it("accepts Token and Bearer headers, auth_token in the query and in a form body", async ({
    server: s,
    app: a,
  }) => {
    for (const init of [
      { headers: { Authorization: `Token ${a.token}` } },
      { headers: { Authorization: `Bearer ${a.token}` } },
    ]) {
      const r = await s.call(channels(a.app.id), init);
      expect(r.status).toBe(200);
    }
    expect((await s.call(`${channels(a.app.id)}?auth_token=${a.token}`)).status).toBe(200);
    const form = await s.call(`/api/apps/${a.app.id}/api_keys`, {
      method: "POST",
      form: { auth_token: a.token },
    });
    // A form-borne token authenticates; key management then refuses tokens on purpose.
    expect(form.status).toBe(403);
    expect(form.body.meta.error).toBe("PermissionDenied");
  });

  it("answers 401 AuthenticationFailed with WWW-Authenticate for missing, unknown and revoked tokens", async ({
    server: s,
    app: a,
  }) => {
    const revoked = await makeToken(s.db, a.app.id);
    await revokeApiKeyBy(s.db, { token: revoked });
    for (const init of [
      {},
      { headers: { Authorization: "Token rly_nope" } },
      { headers: { Authorization: `Token ${revoked}` } },
      { headers: { Authorization: "Basic abc" } },
    ]) {
      const r = await s.call(channels(a.app.id), init);
      expect(r.status).toBe(401);
      expect(r.body.meta).toMatchObject({ status: 401, error: "AuthenticationFailed" });
      expect(r.body.data).toEqual({});
      expect(r.headers.get("www-authenticate")).toMatch(/^Token/);
      expect(typeof r.body.meta.request_id).toBe("string");
    }
  });

  it("answers 403 PermissionDenied for another app's objects", async ({ server: s, app: a, other: b }) => {
    const r = await s.call(channels(a.app.id), { headers: { Authorization: `Token ${b.token}` } });
    expect(r.status).toBe(403);
    expect(r.body.meta.error).toBe("PermissionDenied");
    expect(JSON.stringify(r.body.data)).toBe("{}");
  });

  it("enforces scopes in every version", async ({ server: s, app: a }) => {
    const narrow = await makeToken(s.db, a.app.id, ["user-read"]);
    const v1 = await s.call(`/api/v1/apps/${a.app.id}/channels`, {
      headers: { Authorization: `Token ${narrow}` },
    });
    expect(v1.status).toBe(403);
    expect(v1.body.meta.error_message).toMatch(/conversations-read/);
    const v2 = await s.call(`/api/v2/apps/${a.app.id}/channels`, {
      headers: { Authorization: `Token ${narrow}` },
    });
    expect(v2.status).toBe(403);
    expect(v2.body.meta.error_message).toMatch(/conversations-read/);
  });

  it("serves operators through the session cookie and requires the CSRF header on writes", async ({
    server: s,
    app: a,
  }) => {
    const op = await makeSession(s.db, a.admin.id);
    const list = await s.call(`/api/apps/${a.app.id}/api_keys`, { headers: { cookie: op.cookie } });
    expect(list.status).toBe(200);
    const noCsrf = await s.call(`/api/apps/${a.app.id}/api_keys`, {
      method: "POST",
      headers: { cookie: op.cookie },
      json: { name: "x" },
    });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.meta.error_message).toMatch(/CSRF/);
    const outsider = await makeAdmin(s.db);
    const os = await makeSession(s.db, outsider.id);
    const other = await s.call(channels(a.app.id), { headers: { cookie: os.cookie } });
    expect(other.status).toBe(403);
  });
});

describe("operator login", () => {
  it("logs in, reports the operator, and logs out", async ({ server: s, app: a }) => {
    const login = await s.call("/api/auth/login", {
      method: "POST",
      json: { email: a.admin.email, password: TEST_PASSWORD },
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/relay_session=rls_/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const data = login.body.data as { csrf_token: string; apps: { id: number }[]; admin: { email: string } };
    expect(data.admin.email).toBe(a.admin.email);
    expect(data.apps.map((x) => x.id)).toEqual([Number(a.app.id)]);
    const jar = cookie.split(";")[0]!;
    const me = await s.call("/api/auth/me", { headers: { cookie: jar } });
    expect(me.status).toBe(200);
    const out = await s.call("/api/auth/logout", {
      method: "POST",
      headers: { cookie: jar, "x-csrf-token": data.csrf_token },
    });
    expect(out.status).toBe(200);
    expect((await s.call("/api/auth/me", { headers: { cookie: jar } })).status).toBe(401);
  });

  it("says clearly when the password is wrong or fields are missing", async ({ server: s, app: a }) => {
    const bad = await s.call("/api/auth/login", {
      method: "POST",
      form: { email: a.admin.email, password: "nope" },
    });
    expect(bad.status).toBe(401);
    expect(bad.body.meta.error_message).toBe("Wrong email or password.");
    const missing = await s.call("/api/auth/login", { method: "POST", json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.meta.error_fields).toMatchObject({ email: "is required", password: "is required" });
  });
});

describe("versions", () => {
  const auth = (a: TestApp) => ({ headers: { Authorization: `Token ${a.token}` } });
  it.for<[string, string]>([
    [`/api/apps/{app}/channels`, "2.1.0"],
    [`/api/apps/{app}/channels?version=1`, "1.1.0"],
    [`/api/apps/{app}/channels?version=2.0`, "2.0.0"],
    [`/api/apps/{app}/channels?version=1.0.0`, "1.0.0"],
    [`/api/v1/apps/{app}/channels`, "1.1.0"],
    [`/api/v2/apps/{app}/channels/`, "2.1.0"],
  ])("%s selects %s", async ([path, full], { server: s, app: a }) => {
    const r = await s.call(path.replace("{app}", String(a.app.id)), auth(a));
    expect(r.status).toBe(200);
    expect(r.headers.get("x-api-version")).toBe(full);
    expect(r.headers.get("deprecation")).toBe(full.startsWith("1.") ? "true" : null);
  });

  it("refuses an unknown version as a ValidationError", async ({ server: s, app: a }) => {
    for (const q of ["version=4", "version=2.7", "version=abc"]) {
      const r = await s.call(`/api/apps/${a.app.id}/channels?${q}`, auth(a));
      expect(r.status).toBe(400);
      expect(r.body.meta.error).toBe("ValidationError");
      expect(r.body.meta.error_fields).toHaveProperty("version");
    }
    expect((await s.call(`/api/v9/apps/${a.app.id}/channels`, auth(a))).status).toBe(400);
  });
});

describe("conventions", () => {
  const auth = { Authorization: `Token ${"placeholder"}` };
  it("answers 405 with Allow, and 404 in the envelope for unknown paths", async ({ server: s, app: a }) => {
    auth.Authorization = `Token ${a.token}`;
    const r = await s.call(channels(a.app.id), { method: "DELETE", headers: auth });
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toContain("GET");
    expect(r.body.meta.error).toBe("MethodNotAllowed");
    expect(r.headers.get("x-api-version")).toBe("2.1.0");
    for (const path of ["/api/nope", "/api/v1/conversations/1/nothing", "/api/apps"]) {
      const nf = await s.call(path, { headers: auth });
      expect(nf.status).toBe(404);
      expect(nf.headers.get("x-api-version")).toBe(path.startsWith("/api/v1") ? "1.1.0" : "2.1.0");
      expect(nf.headers.get("content-type")).toMatch(/json/);
      expect(nf.body.meta.error).toBe("NotFound");
    }
  });

  it("resolves $self_app and returns ids as strings with id_as_string", async ({ server: s, app: a }) => {
    const r = await s.call(`/api/apps/$self_app/channels?id_as_string=True`, { headers: auth });
    expect(r.status).toBe(200);
    const list = r.body.data as { id: unknown }[];
    expect(list[0]?.id).toBe(String(a.channel.id));
    const n = await s.call(`/api/apps/$self_app/channels?id_as_string=0`, { headers: auth });
    expect((n.body.data as { id: unknown }[])[0]?.id).toBe(Number(a.channel.id));
  });

  it("reads multipart bodies whatever the case of their boundary (browsers mix cases)", async ({
    server: s,
    app: a,
  }) => {
    const op = await makeSession(s.db, a.admin.id);
    for (const [i, boundary] of ["lowercase0123", "----WebKitFormBoundaryAbCdEfGh"].entries()) {
      const name = `key ${i}`;
      const r = await s.call(`/api/apps/${a.app.id}/api_keys`, {
        method: "POST",
        headers: {
          cookie: op.cookie,
          "x-csrf-token": op.csrf,
          "content-type": `multipart/form-data; boundary=${boundary}`,
        },
        body: `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n--${boundary}--\r\n`,
      });
      expect(r.status, r.text).toBe(200);
      expect((r.body.data as { name: string }).name).toBe(name);
    }
  });

  it("refuses text PostgreSQL cannot store (lone surrogates, NUL) in values and keys, before any write", async ({
    server: s,
    app: a,
  }) => {
    const user = await s.db.user.create({ data: { appId: a.app.id, userId: "surrogates" } });
    const bodies = [
      '{"operations":[{"op":"update_or_create","key":"k","value":"a\\ud800b"}]}',
      '{"operations":[{"op":"update_or_create","key":"k","value":{"x\\udfff":1}}]}',
      '{"operations":[{"op":"update_or_create","key":"k","value":{"x\\u0000":1}}]}',
    ];
    for (const body of bodies) {
      const r = await s.call(`/api/users/${user.id}/props`, {
        method: "POST",
        headers: { Authorization: `Token ${a.token}`, "content-type": "application/json" },
        body,
      });
      expect({ status: r.status, error: r.body.meta.error }, r.text).toEqual({
        status: 400,
        error: "ValidationError",
      });
    }
    const presence = await s.call(`/api/users/${user.id}/setpresence`, {
      method: "POST",
      headers: { Authorization: `Token ${a.token}`, "content-type": "application/json" },
      body: '{"presence":"online","page_title":"\\ud83d"}',
    });
    expect(presence.status, presence.text).toBe(400);
    const row = await s.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.propsCustom).toEqual({});
  });

  it("rejects malformed JSON and bad types with error_fields", async ({ server: s, app: a }) => {
    const op = await makeSession(s.db, a.admin.id);
    const h = { cookie: op.cookie, "x-csrf-token": op.csrf, "content-type": "application/json" };
    const bad = await s.call(`/api/v1/apps/${a.app.id}/api_keys`, {
      method: "POST",
      headers: h,
      body: "{nope",
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("x-api-version")).toBe("1.1.0");
    expect(bad.body.meta.error_fields).toHaveProperty("body");
    const types = await s.call(`/api/apps/${a.app.id}/api_keys`, {
      method: "POST",
      headers: h,
      body: JSON.stringify({ scopes: ["root"], name: { x: 1 } }),
    });
    expect(types.status).toBe(400);
    expect(Object.keys(types.body.meta.error_fields as object).sort()).toEqual(["name", "scopes.0"]);
    const empty = await s.call(`/api/apps/${a.app.id}/channels`, {
      headers: { ...auth, "content-type": "application/json" },
    });
    expect(empty.status).toBe(200);
    const badId = await s.call(`/api/apps/abc/channels`, { headers: auth });
    expect(badId.status).toBe(400);
    expect(badId.body.meta.error_fields).toHaveProperty("id");
  });

  it("creates an API key shown once, lists it without the secret, and revokes it", async ({
    server: s,
    app: a,
  }) => {
    const op = await makeSession(s.db, a.admin.id);
    const h = { cookie: op.cookie, "x-csrf-token": op.csrf };
    const created = await s.call(`/api/apps/${a.app.id}/api_keys`, {
      method: "POST",
      headers: h,
      form: { name: "zapier", scopes: "conversations-read,users-list" },
    });
    expect(created.status).toBe(200);
    const key = created.body.data as { id: number; token: string; scopes: string[] };
    expect(key.scopes).toEqual(["conversations-read", "users-list"]);
    expect((await s.call(`${channels(a.app.id)}?auth_token=${key.token}`)).status).toBe(200);
    const list = await s.call(`/api/apps/${a.app.id}/api_keys`, { headers: h });
    expect(list.text).not.toContain(key.token);
    const del = await s.call(`/api/apps/${a.app.id}/api_keys/${key.id}`, { method: "DELETE", headers: h });
    expect(del.status).toBe(200);
    expect((await s.call(`${channels(a.app.id)}?auth_token=${key.token}`)).status).toBe(401);
  });
});
