import fs from "node:fs";
import path from "node:path";
import { describe, expect } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import { it } from "../testing/fixture";
import { catalog } from "../compose/catalog";
import { openApiDocument, SESSION_ONLY_EXTENSION } from "./openapi";
import { COND_TYPES } from "../leads/filter-grammar";

describe("OpenAPI", () => {
  it.for([["/api/openapi.json"], ["/api/v1/openapi.json"]])(
    "%s validates as OpenAPI 3.1",
    async ([url], { server: s }) => {
      const r = await fetch(s.url + url);
      expect(r.status).toBe(200);
      const doc = (await r.json()) as { openapi: string; paths: Record<string, unknown> };
      expect(doc.openapi).toBe("3.1.0");
      const res = await new Validator().validate(doc);
      expect(res.errors ?? []).toEqual([]);
      expect(res.valid).toBe(true);
      expect(Object.keys(doc.paths)).toContain("/apps/{id}/channels");
    },
  );

  it("has one route file under app/api, the catch-all that hands Next's requests to the catalog", () => {
    const root = path.resolve(import.meta.dirname, "../../app/api");
    const files = fs
      .readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((f) => /(^|\/)route\.[jt]sx?$/.test(f));
    expect(files).toEqual(["[...path]/route.ts"]);
    const listed = catalog.map((e) => `${e.spec.method} ${e.spec.path}`);
    expect(listed).toEqual(expect.arrayContaining(["GET /openapi.json", "GET /health"]));
  });

  it("names each operation's token scopes in both documents", () => {
    type Op = {
      security?: Record<string, string[]>[];
      "x-scopes"?: string[];
      "x-relay-session-only"?: boolean;
      description?: string;
    };
    const op = (major: 1 | 2, path: string, method: string) =>
      (openApiDocument(catalog, major).paths as Record<string, Record<string, Op>>)[path]![method]!;
    const hook = op(2, "/apps/{id}/webhooks", "post");
    expect(hook["x-scopes"]).toEqual(["app-admin"]);
    expect(hook.security).toEqual([{ token: ["app-admin"] }, { tokenParam: ["app-admin"] }, { session: [] }]);
    expect(hook.description).toContain("Token scopes: app-admin");
    // The endpoint's scopes hold in every version; v1's own only where its spec differs.
    expect(op(1, "/conversations/{id}", "get")["x-scopes"]).toEqual(["conversations-read"]);
    expect(op(2, "/conversations/{id}", "get")["x-scopes"]).toEqual(["conversations-read"]);
    expect(op(1, "/apps/{id}/segments", "post")["x-scopes"]).toEqual(["user-write"]);
    expect(op(2, "/apps/{id}/segments", "post")["x-scopes"]).toEqual(["users-list"]);
    expect(op(2, "/conversations/{id}/reply", "post").description).toMatch(/from_user.*as-user/);
    expect(op(2, "/auth/login", "post").security).toBeUndefined();
    for (const major of [1, 2] as const) {
      for (const [path, ops] of Object.entries(
        openApiDocument(catalog, major).paths as Record<string, Record<string, Op>>,
      )) {
        for (const [method, o] of Object.entries(ops)) {
          if (o.security && !o[SESSION_ONLY_EXTENSION])
            expect(o["x-scopes"], `v${major} ${method} ${path}`).toBeDefined();
        }
      }
    }
  });

  it("marks the operations only an operator's session may call, from the endpoints' own sessionOnly", () => {
    type Op = { security?: Record<string, string[]>[]; description?: string; [k: string]: unknown };
    const marked: string[] = [];
    for (const major of [1, 2] as const) {
      const paths = openApiDocument(catalog, major).paths as Record<string, Record<string, Op>>;
      for (const e of catalog) {
        const o = paths[e.spec.path]?.[e.spec.method.toLowerCase()];
        if (!o) continue;
        const name = `v${major} ${e.spec.method} ${e.spec.path}`;
        expect(o[SESSION_ONLY_EXTENSION] === true, name).toBe(e.spec.sessionOnly === true);
        if (!e.spec.sessionOnly) continue;
        // No token scheme: the document must not offer one a token client would try.
        expect(o.security, name).toEqual([{ session: [] }]);
        expect(o.description, name).toMatch(/^Operator session only/);
        marked.push(name);
      }
    }
    expect(marked).toEqual(expect.arrayContaining(["v2 GET /auth/me", "v2 POST /apps/{id}/api_keys"]));
  });

  it("answers each operation's 200 with the envelope around the version's declared response", () => {
    type Content = Record<string, { schema: Json }>;
    type Json = {
      properties?: Record<string, Json>;
      required?: string[];
      items?: Json;
      [k: string]: unknown;
    };
    const ok = (major: 1 | 2, path: string, method: string) => {
      const paths = openApiDocument(catalog, major).paths as Record<string, Record<string, Json>>;
      const responses = paths[path]![method]!.responses as Record<string, { content: Content }>;
      return responses["200"]!.content;
    };
    const data = (c: Content) => c["application/json"]!.schema.properties!.data!;
    const v1 = data(ok(1, "/conversations/{id}", "get"));
    const v2 = data(ok(2, "/conversations/{id}", "get"));
    expect(v2.required).toContain("delayed_until");
    expect(v1.required).not.toContain("delayed_until");
    expect(v2.additionalProperties).toBe(false);
    expect(Object.keys(data(ok(2, "/conversations/{id}/parts", "get")).items!.properties!)).toContain("from");
    const page = ok(2, "/conversations/{id}/parts", "get")["application/json"]!.schema.properties!.meta!;
    expect(Object.keys(page.properties!)).toContain("next_before_position");
    expect(Object.keys(ok(2, "/apps/{id}/users/export", "get"))).toEqual(["text/csv"]);
    // Shared definitions live in components, and every reference resolves there.
    for (const major of [1, 2] as const) {
      const doc = openApiDocument(catalog, major) as { components: { schemas: Record<string, unknown> } };
      const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of new Set(refs)) {
        expect(ref).toMatch(/^#\/components\/schemas\//);
        expect(doc.components.schemas, ref).toHaveProperty(ref.split("/").pop()!);
      }
    }
  });

  it("states the filters grammar, every condition type with its value, where filters are taken", () => {
    type Op = { parameters?: { name: string; schema: { description?: string } }[]; requestBody?: unknown };
    const paths = openApiDocument(catalog, 2).paths as Record<string, Record<string, Op>>;
    const query = paths["/apps/{id}/users"]!.get!.parameters!.find((p) => p.name === "filters")!;
    const body = JSON.stringify(paths["/apps/{id}/segments"]!.post!.requestBody);
    const text = query.schema.description ?? "";
    for (const type of COND_TYPES) {
      expect(text).toMatch(new RegExp(`[-,] ${type}[,:]`));
      expect(body).toContain(type);
    }
    expect(text).toMatch(/range: \{"value1": number, "value2": number\}/);
    expect(text).toMatch(/in_segment: \{"value": segment ID or name\}; on \$segment/);
    expect(text).toContain("at most 3 levels");
  });

  it("renders a readable reference at /docs", async ({ server: s }) => {
    const r = await fetch(s.url + "/docs");
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain("API reference");
    expect(html).toContain("/apps/{id}/channels");
    expect(html).toContain("Filters grammar");
    expect(html).toContain("date_range");
  });
});
