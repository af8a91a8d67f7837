import { describe, expect } from "vitest";
import { z } from "zod";
import { it, type TestApp } from "../testing/fixture";
import { jsonText, paramKinds, PATH_CLASSES, Raw, valueClasses } from "../testing/value-classes";
import { catalog } from "../compose/catalog";
import type { Endpoint } from "./endpoint";

/**
 * Every endpoint of the catalog gets hostile input: wrong types, huge strings, odd unicode, deep nesting, bad
 * numbers, malformed bodies and wrong methods. The answer must always be the envelope, never a 5xx.
 */

const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
const VALUES: unknown[] = [
  "y".repeat(70_000),
  "",
  " ",
  "x".repeat(20_000),
  "\u0000\u0001\u202e\ud800",
  "😀".repeat(500),
  "null",
  "-1",
  "0",
  "1e309",
  "NaN",
  "99999999999999999999999",
  "{}",
  "[]",
  deep(5000),
  '{"a":' + deep(2000) + "}",
  "$self_app",
  "default_admin",
  -1,
  1e308,
  true,
  { nested: { deeper: [1, 2, { x: "y" }] } },
  [[["a"]]],
];
/** A seeded handful of the values per parameter: every value is still tried across the catalog, in bounded time. */
function sample<T>(xs: readonly T[], n: number, key: string): T[] {
  let h = [...key].reduce((acc, c) => (Math.imul(acc, 31) + c.charCodeAt(0)) >>> 0, 7);
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    h = (Math.imul(h, 1103515245) + 12345) >>> 0;
    const j = h % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out.slice(0, n);
}

const PATH_VALUES = ["abc", "-1", "0", "99999999999999999999", "%F0%9F%98%80", "1.5", "%00", ...PATH_CLASSES];

function paramNames(schema: z.ZodType): string[] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { properties?: object };
  return Object.keys(json.properties ?? {});
}

/** An endpoint whose 200 is a file (the leads CSV export, attachments, the OpenAPI document), not the envelope. */
const declaresFile = (e: Endpoint) =>
  [e.spec.v1, e.spec.v2].some((v) => v !== undefined && "contentType" in v.response);

let requests = 0;
let serverErrors = 0;

function expectEnvelope(file: boolean, status: number, text: string, what: string) {
  requests++;
  if (status >= 500) serverErrors++;
  expect(status, what).toBeLessThan(500);
  // A successful download is the file itself; its errors are still envelopes.
  if (status < 300 && file) return;
  let body: { meta?: { status?: number } } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    expect.fail(`${what}: not the envelope (HTTP ${status}): ${text.slice(0, 120)}`);
  }
  expect(body.meta?.status, what).toBe(status);
}

describe.each(catalog.map((e) => [`${e.spec.method} ${e.spec.path}`, e] as const))("%s", (_name, e) => {
  const versions = (["v1", "v2"] as const).filter((v) => e.spec[v]);
  /** A real object for the path's `{id}`, so that hostile input reaches the code behind the lookup. */
  const realId = (a: TestApp, c: { id: bigint; userId: bigint }) =>
    ({ apps: a.app.id, users: c.userId, conversations: c.id })[e.spec.path.split("/")[1] ?? ""]?.toString() ??
    "1";
  const fill = (path: string, value: string) =>
    path.replace(/\{(\w+)\}/g, (_m, k: string) => (k === "id" ? value : "1"));

  it(
    "never answers 5xx to hostile parameters",
    { timeout: 120_000 },
    async ({ server: s, app: a, conversation }) => {
      const auth = { Authorization: `Token ${a.token}` };
      for (const v of versions) {
        const names = paramNames(e.spec[v]!.params).filter((n) => !e.spec.path.includes(`{${n}}`));
        const base = `/api/${v}${fill(e.spec.path, realId(a, conversation))}`;
        for (const pv of PATH_VALUES) {
          const r = await s.call(`/api/${v}${fill(e.spec.path, pv)}`, {
            method: e.spec.method,
            headers: auth,
          });
          expectEnvelope(declaresFile(e), r.status, r.text, `${v} path ${pv}`);
        }
        const kinds = paramKinds(e.spec[v]!.params);
        for (const name of [...names, "unexpected_extra"]) {
          const values = [
            ...sample(VALUES, 6, `${v} ${e.spec.method} ${e.spec.path} ${name}`),
            ...valueClasses(name, kinds[name] ?? "json"),
          ];
          for (const value of values) {
            const json = await s.call(base, {
              method: e.spec.method === "GET" ? "POST" : e.spec.method,
              headers: {
                ...auth,
                "X-HTTP-Method-Override": e.spec.method,
                "content-type": "application/json",
              },
              body: jsonText({ [name]: value }),
            });
            expectEnvelope(
              declaresFile(e),
              json.status,
              json.text,
              `${v} json ${name}=${jsonText({ v: value }).slice(0, 60)}`,
            );
            const q = new URLSearchParams({
              [name]:
                typeof value === "string" ? value : value instanceof Raw ? value.text : JSON.stringify(value),
            });
            const query = await s.call(`${base}?${q.toString()}`, { method: e.spec.method, headers: auth });
            expectEnvelope(declaresFile(e), query.status, query.text, `${v} query ${name}`);
          }
        }
      }
    },
  );

  it("answers malformed bodies and wrong methods in the envelope", async ({
    server: s,
    app: a,
    conversation,
  }) => {
    const auth = { Authorization: `Token ${a.token}` };
    const url = `/api${fill(e.spec.path, realId(a, conversation))}`;
    const bodies: [string, string][] = [
      ["application/json", "{"],
      ["application/json", "[1,2]"],
      ["application/json", "null"],
      ["application/json", '"str"'],
      ["application/json", deep(100_000)],
      ["multipart/form-data; boundary=zzz", '--zzz\r\nContent-Disposition: form-data; name="a"\r\n\r\nb'],
      ["multipart/form-data", "garbage"],
      ["application/x-www-form-urlencoded", "%%%=%%%&a=%E0%A4%A"],
      ["text/plain", "\u0000\u0000"],
    ];
    if (e.spec.method !== "GET") {
      for (const [type, body] of bodies) {
        const r = await s.call(url, {
          method: e.spec.method,
          headers: { ...auth, "content-type": type },
          body,
        });
        expectEnvelope(declaresFile(e), r.status, r.text, `${type} ${body.slice(0, 20)}`);
      }
      // Endpoints that stream their body (imports) enforce their own, larger limit.
      if (!e.spec.rawBody) {
        const big = await s.call(url, {
          method: e.spec.method,
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ body: "x".repeat((e.spec.bodyLimit ?? 1024 * 1024) + 10) }),
        });
        expect(big.status).toBe(413);
        expectEnvelope(declaresFile(e), big.status, big.text, "oversized body");
      }
    }
    for (const m of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      const r = await s.call(url, { method: m, headers: auth });
      expectEnvelope(declaresFile(e), r.status, r.text, `method ${m}`);
      if (!catalog.some((x) => x.spec.path === e.spec.path && x.spec.method === m)) {
        expect(r.status, `method ${m}`).toBe(405);
        expect(r.headers.get("allow")).toContain(e.spec.method);
      }
    }
  });
});

describe("fuzz totals", () => {
  it("counts the requests and the 5xx answers", () => {
    console.log(`fuzz: ${requests} requests over ${catalog.length} endpoints, ${serverErrors} answered 5xx`);
    expect(serverErrors).toBe(0);
  });
});
