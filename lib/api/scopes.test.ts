import { describe, expect } from "vitest";
import { z } from "zod";
import type { TestServer } from "../testing/server";
import { serverTest, type TestApp } from "../testing/server-test";
import { makeSession, makeToken, unique } from "../testing/factories";
import { fillPath, makeCatalogObjects, validParams, type CatalogObjects } from "../testing/catalog-objects";
import { fingerprint } from "../testing/fingerprint";
import { SCOPES, type Scope } from "../auth/scopes";
import { catalog } from "../compose/catalog";
import { scopesOf } from "./access";
import type { Endpoint } from "./endpoint";
import { appIdFields } from "../contract/zod";

const it = serverTest({ webhookAllowPrivate: true });

/**
 * Token scopes in every version: each endpoint of the catalog, called with a token that lacks one of the scopes it
 * declares, is refused with PermissionDenied naming that scope and writes nothing; a token with exactly its scopes
 * gets past the check. Acting as the visitor also needs as-user. `$self_app` stands only for app IDs.
 */
let o: CatalogObjects;
/** For each scope, a token with every other one. */
const allBut = new Map<Scope, string>();
const exactly = new Map<string, string>();
const without = (x: Scope) => SCOPES.filter((y) => y !== x);

it.beforeAll(async ({ server: s, app: a }) => {
  o = await makeCatalogObjects(s, a);
  for (const x of SCOPES) allBut.set(x, await makeToken(s.db, a.app.id, without(x)));
});

async function exactToken(s: TestServer, a: TestApp, scopes: readonly Scope[]): Promise<string> {
  const key = [...scopes].sort().join(",");
  let t = exactly.get(key);
  if (!t) exactly.set(key, (t = await makeToken(s.db, a.app.id, [...scopes])));
  return t;
}

type Version = "v1" | "v2";
const scoped = catalog.filter((e) => e.spec.auth !== "none" && e.spec.auth !== "secret");
const cases = scoped.flatMap((e) =>
  (["v1", "v2"] as const)
    .filter((v) => e.spec[v])
    .map((v) => [`${v} ${e.spec.method} ${e.spec.path}`, e, v] as const),
);

function shapeOf(e: Endpoint, v: Version): Record<string, z.ZodType> {
  const schema = e.spec[v]!.params;
  return schema instanceof z.ZodObject ? schema.shape : {};
}

async function call(
  s: TestServer,
  a: TestApp,
  token: string,
  e: Endpoint,
  v: Version,
  extra: Record<string, unknown> = {},
) {
  const params = { ...validParams(e.spec.method, e.spec.path, o, a.admin.id), ...extra };
  // Imports stream their body: their parameters go in the query string, like every GET's and DELETE's.
  const inQuery = e.spec.method === "GET" || e.spec.method === "DELETE" || e.spec.rawBody;
  const q = new URLSearchParams();
  if (inQuery)
    for (const [k, x] of Object.entries(params)) q.set(k, typeof x === "string" ? x : JSON.stringify(x));
  return s.call(`/api/${v}${fillPath(e.spec.path, o)}${q.size ? `?${q.toString()}` : ""}`, {
    method: e.spec.method,
    headers: { Authorization: `Token ${token}` },
    ...(inQuery ? {} : { json: params }),
  });
}

const lacksScope = (r: { status: number; body: { meta: Record<string, unknown> } }) =>
  r.status === 403 && /lacks the scope/.test(String(r.body.meta.error_message));

describe("declarations", () => {
  it("every endpoint that takes a token declares its scopes", () => {
    const undeclared = scoped.filter((e) => !Array.isArray(e.spec.scopes));
    expect(undeclared.map((e) => `${e.spec.method} ${e.spec.path}`)).toEqual([]);
    for (const e of scoped) for (const x of e.spec.scopes ?? []) expect(SCOPES).toContain(x);
  });

  it("asUserWith names a parameter of every version", () => {
    for (const [name, e, v] of cases) {
      if (e.spec.asUserWith) expect(Object.keys(shapeOf(e, v)), name).toContain(e.spec.asUserWith);
    }
  });

  it("marks every app ID parameter (`/apps/{id}` and `app`) with p.appId", () => {
    for (const [name, e, v] of cases) {
      const marked = appIdFields(e.spec[v]!.params);
      if (e.spec.path.startsWith("/apps/{id}")) expect(marked, name).toContain("id");
      if ("app" in shapeOf(e, v)) expect(marked, name).toContain("app");
    }
  });
});

describe("a token lacking a scope", () => {
  it.for(cases.filter(([, e, v]) => scopesOf(e.spec, e.spec[v]!).length > 0))(
    "%s: 403 naming it, nothing written",
    async ([name, e, v], { server: s, app: a }) => {
      for (const x of scopesOf(e.spec, e.spec[v]!)) {
        const before = await fingerprint(s.db);
        const r = await call(s, a, allBut.get(x)!, e, v);
        expect(r.status, `${name} without ${x}: ${r.text.slice(0, 200)}`).toBe(403);
        expect(r.body.meta.error).toBe("PermissionDenied");
        expect(r.body.meta.error_message).toContain(x);
        expect(await fingerprint(s.db), `${name} without ${x}`).toBe(before);
      }
    },
  );

  it.for(cases.filter(([, e]) => e.spec.asUserWith))(
    "%s: acting as the visitor needs as-user, nothing written",
    async ([name, e, v], { server: s, app: a }) => {
      const field = shapeOf(e, v)[e.spec.asUserWith!]!;
      // v1's from_user is a boolean, v2's the user's ID or default_user.
      const asUser = {
        [e.spec.asUserWith!]: field.safeParse("default_user").success ? "default_user" : true,
      };
      const before = await fingerprint(s.db);
      const r = await call(s, a, allBut.get("as-user")!, e, v, asUser);
      expect(r.status, `${name}: ${r.text.slice(0, 200)}`).toBe(403);
      expect(r.body.meta.error_message).toContain("as-user");
      expect(await fingerprint(s.db)).toBe(before);
      const allowed = await call(
        s,
        a,
        await exactToken(s, a, [...scopesOf(e.spec, e.spec[v]!), "as-user"]),
        e,
        v,
        asUser,
      );
      expect(allowed.status, `${name}: ${allowed.text.slice(0, 200)}`).toBe(200);
      // Without it the operator's form of the same call needs no as-user.
      const asAdmin = await call(s, a, allBut.get("as-user")!, e, v);
      expect(lacksScope(asAdmin), name).toBe(false);
    },
  );
});

describe("a token with exactly the declared scopes", () => {
  // After the refusals: these calls may write (and delete the objects later ones name: LookupError is fine).
  it.for(cases)("%s: passes the scope check", async ([name, e, v], { server: s, app: a }) => {
    const r = await call(s, a, await exactToken(s, a, scopesOf(e.spec, e.spec[v]!)), e, v);
    expect(lacksScope(r), `${name}: ${r.text.slice(0, 200)}`).toBe(false);
  });
});

describe("$self_app", () => {
  it("stands for the caller's app in app ID parameters, path and `app`", async ({ server: s, app: a }) => {
    const auth = { Authorization: `Token ${a.token}` };
    const channels = await s.call("/api/apps/$self_app/channels", { headers: auth });
    expect(channels.status).toBe(200);
    const user = await s.call(`/api/users/${unique("ext")}/events?by_user_id=true&app=$self_app`, {
      headers: auth,
    });
    expect(user.status).toBe(200);
  });

  it("is a ValidationError in any other parameter, and revokes nothing", async ({ server: s, app: a }) => {
    const op = await makeSession(s.db, a.admin.id);
    const before = await fingerprint(s.db);
    const r = await s.call(`/api/apps/${a.app.id}/api_keys/$self_app`, {
      method: "DELETE",
      headers: { cookie: op.cookie, "X-CSRF-Token": op.csrf },
    });
    expect(r.status).toBe(400);
    expect(r.body.meta.error).toBe("ValidationError");
    expect(Object.keys(r.body.meta.error_fields as object)).toEqual(["key_id"]);
    expect(await fingerprint(s.db)).toBe(before);
    const conv = await s.call(`/api/conversations/$self_app`, {
      headers: { Authorization: `Token ${a.token}` },
    });
    expect(conv.status).toBe(400);
    expect(Object.keys(conv.body.meta.error_fields as object)).toEqual(["id"]);
  });
});

describe("GET never creates for a session", () => {
  it("GET /users/{id}/events?by_user_id: LookupError for an operator, the user made for a token", async ({
    server: s,
    app: a,
  }) => {
    const op = await makeSession(s.db, a.admin.id);
    const ext = unique("nobody");
    const path = `/api/users/${ext}/events?by_user_id=true&app=${a.app.id}`;
    const before = await fingerprint(s.db);
    const r = await s.call(path, { headers: { cookie: op.cookie } });
    expect(r.status).toBe(400);
    expect(r.body.meta.error).toBe("LookupError");
    expect(await fingerprint(s.db)).toBe(before);
    const t = await s.call(path, { headers: { Authorization: `Token ${a.token}` } });
    expect(t.status).toBe(200);
    expect(await s.db.user.count({ where: { appId: a.app.id, userId: ext } })).toBe(1);
  });
});
