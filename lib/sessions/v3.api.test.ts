import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import { Validator } from "@seriousme/openapi-schema-validator";
import type { TestServer } from "../testing/server";
import { client } from "../testing/http";
import { makeAdmin, makeApp, makeSession, makeToken, TEST_PASSWORD } from "../testing/factories";
import type { TokenPairData } from "./schemas";
import { hashToken } from "../auth/tokens";

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

async function exchange(s: TestServer, key: string): Promise<TokenPairData> {
  const r = await s.call("/api/v3/auth/token", {
    method: "POST",
    headers: { Authorization: `Token ${key}` },
    form: { grant_type: "api_key" },
  });
  expect(r.status, r.text).toBe(200);
  return r.body.data as TokenPairData;
}

async function refresh(s: TestServer, token: string) {
  return s.call("/api/v3/auth/token", {
    method: "POST",
    json: { grant_type: "refresh_token", refresh_token: token },
  });
}

describe("API v3", () => {
  it("serves every v2 endpoint under /api/v3 and version=3, naming 3.0.0; v2 stays the default", async ({
    server: s,
  }) => {
    const a = await makeApp(s.db);
    const v3 = await client(s, a.token).get("/api/v3/ping");
    const v2 = await client(s, a.token).get("/api/ping");
    expect(v3.status).toBe(200);
    expect(v3.headers.get("x-api-version")).toBe("3.0.0");
    expect(v2.headers.get("x-api-version")).toBe("2.1.0");
    expect(v3.body.data).toEqual(v2.body.data);
    expect((await client(s, a.token).get("/api/ping", { version: 3 })).headers.get("x-api-version")).toBe(
      "3.0.0",
    );
    // v3-only paths do not exist in earlier versions.
    const old = await s.call("/api/v2/auth/token", { method: "POST", form: { grant_type: "api_key" } });
    expect(old.status).toBe(404);
  });

  it("exchanges an API key for a pair; the access token authenticates v3 calls, never v1 or v2", async ({
    server: s,
  }) => {
    const a = await makeApp(s.db);
    const pair = await exchange(s, a.token);
    expect(pair).toMatchObject({ token_type: "Bearer", expires_in: 300 });
    expect(pair.refresh_token).toMatch(/^rlr_/);
    const me = await s.call("/api/v3/ping", bearer(pair.access_token));
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ actor: "token", app: Number(a.app.id) });
    expect((await s.call("/api/v2/ping", bearer(pair.access_token))).status).toBe(401);
    expect((await s.call("/api/v1/ping", bearer(pair.access_token))).status).toBe(401);
    // The plain key still works under v3.
    expect((await client(s, a.token).get("/api/v3/ping")).status).toBe(200);
    // An access token mints nothing.
    const again = await s.call("/api/v3/auth/token", {
      method: "POST",
      ...bearer(pair.access_token),
      form: { grant_type: "api_key" },
    });
    expect(again.status).toBe(401);
  });

  it("enforces the scopes the claims carry, and the app the audience names", async ({ server: s }) => {
    const a = await makeApp(s.db);
    const b = await makeApp(s.db);
    const readOnly = await makeToken(s.db, a.app.id, ["conversations-read"]);
    const pair = await exchange(s, readOnly);
    const ok = await s.call(`/api/v3/apps/${a.app.id}/conversations`, bearer(pair.access_token));
    expect(ok.status, ok.text).toBe(200);
    const users = await s.call(`/api/v3/apps/${a.app.id}/users`, bearer(pair.access_token));
    expect(users.status).toBe(403);
    expect(users.body.meta.error).toBe("PermissionDenied");
    const other = await s.call(`/api/v3/apps/${b.app.id}/conversations`, bearer(pair.access_token));
    expect(other.status).toBe(403);
  });

  it("rotates refresh tokens; a reused one revokes its whole family", async ({ server: s }) => {
    const a = await makeApp(s.db);
    const first = await exchange(s, a.token);
    const r1 = await refresh(s, first.refresh_token);
    expect(r1.status, r1.text).toBe(200);
    const second = r1.body.data as TokenPairData;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await s.call("/api/v3/ping", bearer(second.access_token))).status).toBe(200);

    const reuse = await refresh(s, first.refresh_token);
    expect(reuse.status).toBe(401);
    // The thief's and the owner's copies alike: the family is gone, its access tokens with it.
    expect((await refresh(s, second.refresh_token)).status).toBe(401);
    expect((await s.call("/api/v3/ping", bearer(second.access_token))).status).toBe(401);
    // Another exchange starts a new family.
    const fresh = await exchange(s, a.token);
    expect((await refresh(s, fresh.refresh_token)).status).toBe(200);
    expect((await refresh(s, "rlr_unknown")).status).toBe(401);
  });

  it("revoking the API key ends its refresh tokens, access tokens and sockets at once", async ({
    server: s,
    sockets,
  }) => {
    const a = await makeApp(s.db);
    const key = await makeToken(s.db, a.app.id);
    const pair = await exchange(s, key);
    const socket = await sockets.open({ token: pair.access_token });
    const dropped = new Promise<string>((resolve) => socket.once("disconnect", resolve));
    const row = await s.db.apiKey.findUniqueOrThrow({ where: { tokenHash: hashToken(key) } });
    const panel = await makeSession(s.db, a.admin.id);
    const del = await client(s, panel).del(`/api/apps/${a.app.id}/api_keys/${row.id}`);
    expect(del.status, del.text).toBe(200);
    expect((await s.call("/api/v3/ping", bearer(pair.access_token))).status).toBe(401);
    expect((await refresh(s, pair.refresh_token)).status).toBe(401);
    expect(await dropped).toBe("io server disconnect");
  });

  it("gives operators the pair at v3 login (v2 login unchanged), and removing one ends their tokens", async ({
    server: s,
  }) => {
    const a = await makeApp(s.db);
    const op = await makeAdmin(s.db, { appId: a.app.id });
    const creds = { email: op.email, password: TEST_PASSWORD };
    const v2 = await s.call("/api/auth/login", { method: "POST", json: creds });
    expect(v2.status).toBe(200);
    expect(v2.headers.get("set-cookie")).toMatch(/relay_session=/);
    expect(v2.body.data).toHaveProperty("csrf_token");

    const v3 = await s.call("/api/v3/auth/login", { method: "POST", json: creds });
    expect(v3.status, v3.text).toBe(200);
    expect(v3.headers.get("set-cookie")).toBeNull();
    const pair = v3.body.data as TokenPairData;
    const me = await s.call("/api/v3/ping", bearer(pair.access_token));
    expect(me.body.data).toEqual({ actor: "operator", admin: Number(op.id), apps: [Number(a.app.id)] });
    // A bearer write needs no CSRF token (no browser sends it by itself).
    const w = await s.call(`/api/v3/apps/${a.app.id}/api_keys`, {
      method: "POST",
      ...bearer(pair.access_token),
      json: { name: "From v3", scopes: ["user-read"] },
    });
    expect(w.status, w.text).toBe(200);

    // A second login, ended by its own logout: its tokens stop, the first login's do not.
    const other = (await s.call("/api/v3/auth/login", { method: "POST", json: creds })).body
      .data as TokenPairData;
    const out = await s.call("/api/v3/auth/logout", { method: "POST", ...bearer(other.access_token) });
    expect(out.status, out.text).toBe(200);
    expect((await s.call("/api/v3/ping", bearer(other.access_token))).status).toBe(401);
    expect((await refresh(s, other.refresh_token)).status).toBe(401);
    expect((await s.call("/api/v3/ping", bearer(pair.access_token))).status).toBe(200);

    const owner = await makeSession(s.db, a.admin.id);
    await s.db.appAdmin.update({
      where: { appId_adminId: { appId: a.app.id, adminId: a.admin.id } },
      data: { role: "owner" },
    });
    const rm = await client(s, owner).del(`/api/apps/${a.app.id}/admins/${op.id}`);
    expect(rm.status, rm.text).toBe(200);
    expect((await s.call("/api/v3/ping", bearer(pair.access_token))).status).toBe(401);
    expect((await refresh(s, pair.refresh_token)).status).toBe(401);
  });

  it("publishes a JWKS document that verifies the access tokens", async ({ server: s }) => {
    const a = await makeApp(s.db);
    const pair = await exchange(s, a.token);
    const r = await s.call("/api/v3/.well-known/jwks.json");
    expect(r.status).toBe(200);
    const jwks = JSON.parse(r.text) as JSONWebKeySet;
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const k of jwks.keys) expect(k).not.toHaveProperty("d");
    const { payload } = await jwtVerify(pair.access_token, createLocalJWKSet(jwks), {
      algorithms: ["EdDSA"],
      audience: `relay:app:${a.app.id}`,
    });
    expect(payload.scope).toContain("conversations-read");
  });

  it("documents v3 in its own OpenAPI document: the token methods and the bearer scheme", async ({
    server: s,
  }) => {
    const r = await fetch(s.url + "/api/v3/openapi.json");
    const doc = (await r.json()) as {
      paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
      components: { securitySchemes: Record<string, unknown> };
      servers: { url: string }[];
    };
    const res = await new Validator().validate(doc);
    expect(res.errors ?? []).toEqual([]);
    expect(doc.servers).toEqual([{ url: "/api/v3" }]);
    expect(doc.components.securitySchemes.accessToken).toMatchObject({
      scheme: "bearer",
      bearerFormat: "JWT",
    });
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/auth/token", "/.well-known/jwks.json"]));
    expect(doc.paths["/users/{id}"]?.get?.security).toContainEqual({ accessToken: ["user-read"] });
    const v2 = (await (await fetch(s.url + "/api/openapi.json")).json()) as typeof doc;
    expect(Object.keys(v2.paths)).not.toContain("/auth/token");
    expect(v2.components.securitySchemes).not.toHaveProperty("accessToken");
  });
});
