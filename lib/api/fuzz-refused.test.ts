import { describe, expect } from "vitest";
import { jobRunner } from "../jobs/runner";
import { z } from "zod";
import { serverTest, type TestApp } from "../testing/server-test";
import { makeSession } from "../testing/factories";
import { fingerprint } from "../testing/fingerprint";
import { sweepPresence } from "../users/presence";
import { fillPath, makeCatalogObjects, validParams, type CatalogObjects } from "../testing/catalog-objects";
import { jsonText, paramKinds, PATH_CLASSES, Raw, valueClasses } from "../testing/value-classes";
import { catalog } from "../compose/catalog";
import type { Endpoint } from "./endpoint";

const it = serverTest({ webhookAllowPrivate: true });

/**
 * Every endpoint of the catalog, starting from parameters that pass validation, gets one mutation at a time
 * (wrong types, missing and extra parameters, 1 MB strings, odd unicode, deep JSON, out-of-range numbers, broken
 * multipart, odd methods), drawn by a seeded generator so that a failure replays. Every answer is the envelope and
 * never a 5xx; a refused request writes nothing (the stored fingerprint is unchanged).
 */
let o: CatalogObjects;
let session: { cookie: string; csrf: string };

it.beforeAll(async ({ server: s, app: a }) => {
  o = await makeCatalogObjects(s, a);
  session = await makeSession(s.db, a.admin.id);
});

/** mulberry32: small, fast, and the same sequence for the same seed. */
function seeded(seed: number) {
  let t = seed >>> 0;
  const next = () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let x = Math.imul(t ^ (t >>> 15), 1 | t);
    x ^= x + Math.imul(x ^ (x >>> 7), 61 | x);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  return { next, pick };
}

const hash = (str: string) => [...str].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 7);

const WRONG_TYPES: unknown[] = [{}, [], true, 12345, "a string", null, [[1, [2]]], { nested: { x: [1] } }];
const UNICODE = [
  "\ud800",
  "\udfff\ud800",
  "\u202eevil\u202c",
  "\u200b\u200d\ufeff",
  "👩‍👩‍👧‍👦🏳️‍🌈",
  "a\u0000b",
  "e\u0301\u0301\u0301",
  "\uffff\ufffe",
  "שלום مرحبا",
];
const NUMBERS: unknown[] = [
  new Raw("9223372036854775808"),
  new Raw("-9223372036854775809"),
  new Raw("1e309"),
  new Raw("-1e309"),
  new Raw("1e-400"),
  -1,
  -0,
  1.5,
  "NaN",
  "Infinity",
  "-1",
  "9223372036854775808",
  "0x1f",
  " 1 ",
  "1_000",
];
const MB = 1_000_000;
const deepObject = (n: number) => new Raw('{"a":'.repeat(n) + "1" + "}".repeat(n));
const deepArray = (n: number) => new Raw("[".repeat(n) + "]".repeat(n));

interface Case {
  what: string;
  method?: string;
  params?: Record<string, unknown>;
  /** A body sent as is, with its content type. */
  raw?: { type: string; body: string | Uint8Array<ArrayBuffer> };
  /** A path parameter's value instead of the real object's. */
  pathValue?: [string, string];
}

function paramNames(schema: z.ZodType): { all: string[]; required: string[] } {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: object;
    required?: string[];
  };
  return { all: Object.keys(json.properties ?? {}), required: json.required ?? [] };
}

function multipartCases(base: Record<string, unknown>): Case[] {
  const field = (b: string, name: string, value: string) =>
    `--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const fields = (b: string) =>
    Object.entries(base)
      .map(([k, v]) => field(b, k, typeof v === "string" ? v : JSON.stringify(v)))
      .join("");
  const mp = (b: string) => `multipart/form-data; boundary=${b}`;
  const big = new Uint8Array(1_200_000).fill(0x41);
  return [
    {
      what: "multipart: boundary differs from the header",
      raw: { type: mp("Right"), body: fields("Wrong") + "--Wrong--\r\n" },
    },
    { what: "multipart: no closing boundary", raw: { type: mp("b0"), body: fields("b0") } },
    {
      what: "multipart: no boundary parameter",
      raw: { type: "multipart/form-data", body: fields("b1") + "--b1--" },
    },
    {
      what: "multipart: part without Content-Disposition",
      raw: { type: mp("b2"), body: `--b2\r\nContent-Type: text/plain\r\n\r\nhello\r\n--b2--\r\n` },
    },
    {
      what: "multipart: file part with a hostile name",
      raw: {
        type: mp("b3"),
        body:
          fields("b3") +
          `--b3\r\nContent-Disposition: form-data; name="attachment"; filename="../../\u202eexe.png"\r\n` +
          `Content-Type: image/png\r\n\r\nMZ\u0000\u0000not a png\r\n--b3--\r\n`,
      },
    },
    {
      what: "multipart: a 1.2 MB part",
      raw: {
        type: mp("b4"),
        body: new Uint8Array(
          Buffer.concat([
            Buffer.from(
              fields("b4") + `--b4\r\nContent-Disposition: form-data; name="file"; filename="f.csv"\r\n\r\n`,
            ),
            big,
            Buffer.from("\r\n--b4--\r\n"),
          ]),
        ),
      },
    },
  ];
}

function casesFor(a: TestApp, e: Endpoint, names: { all: string[]; required: string[] }): Case[] {
  const r = seeded(hash(`${e.spec.method} ${e.spec.path}`));
  const base = validParams(e.spec.method, e.spec.path, o, a.admin.id);
  const own = names.all.filter((n) => !e.spec.path.includes(`{${n}}`));
  const targets = own.length ? own : ["unexpected"];
  const with1 = (k: string, v: unknown) => ({ ...base, [k]: v });
  const cases: Case[] = [];
  for (let i = 0; i < 3; i++) {
    const k = r.pick(targets);
    const v = r.pick(WRONG_TYPES);
    cases.push({ what: `wrong type ${k}=${JSON.stringify(v)}`, params: with1(k, v) });
  }
  cases.push({ what: "no parameters at all", params: {} });
  for (const k of names.required.filter((n) => !e.spec.path.includes(`{${n}}`)).slice(0, 3)) {
    const rest = { ...base };
    delete rest[k];
    cases.push({ what: `missing ${k}`, params: rest });
  }
  cases.push({ what: "extra parameters", params: { ...base, unexpected: "x", "a[b]": 1, constructor: "y" } });
  if (e.spec.method === "GET")
    cases.push({ what: "__proto__ key", params: { ["__proto__"]: "x", "__proto__[admin]": 1 } });
  else
    cases.push({
      what: "__proto__ key",
      raw: { type: "application/json", body: '{"__proto__":{"admin":true}}' },
    });
  cases.push({ what: "1 MB string", params: with1(r.pick(targets), "é".repeat(MB / 2)) });
  cases.push({ what: "1 MB query string", method: "GET", params: { q: "x".repeat(MB) } });
  for (let i = 0; i < 3; i++) {
    const k = r.pick(targets);
    const v = r.pick(UNICODE) + r.pick(UNICODE);
    cases.push({ what: `unicode ${k}=${JSON.stringify(v)}`, params: with1(k, v) });
  }
  cases.push({ what: "deep object", params: with1(r.pick(targets), deepObject(5_000)) });
  cases.push({ what: "deep array", params: with1(r.pick(targets), deepArray(50_000)) });
  for (let i = 0; i < 4; i++) {
    const k = r.pick(targets);
    const v = r.pick(NUMBERS);
    cases.push({ what: `number ${k}=${v instanceof Raw ? v.text : JSON.stringify(v)}`, params: with1(k, v) });
  }
  const kinds = paramKinds((e.spec.v2 ?? e.spec.v1)!.params);
  for (const k of own)
    for (const v of valueClasses(k, kinds[k] ?? "json"))
      cases.push({
        what: `class ${k}=${v instanceof Raw ? v.text : JSON.stringify(v)}`,
        params: with1(k, v),
      });
  for (const [, name] of e.spec.path.matchAll(/\{(\w+)\}/g))
    for (const pv of PATH_CLASSES)
      cases.push({ what: `path ${name}=${pv}`, params: base, pathValue: [name!, pv] });
  if (e.spec.method !== "GET") cases.push(...multipartCases(base));
  cases.push({ what: "OPTIONS", method: "OPTIONS" }, { what: "HEAD", method: "HEAD" });
  return cases;
}

/** An endpoint whose 200 is a file (the leads CSV export, attachments, the OpenAPI document), not the envelope. */
const declaresFile = (e: Endpoint) =>
  [e.spec.v1, e.spec.v2].some((v) => v !== undefined && "contentType" in v.response);

function expectEnvelope(file: boolean, status: number, text: string, what: string) {
  expect(status, what).toBeLessThan(500);
  // A successful download is the file itself; its errors are still envelopes.
  if (status < 300 && file) return;
  let body: { data?: unknown; meta?: { status?: number; error?: string } } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    expect.fail(`${what}: not the envelope (HTTP ${status}): ${text.slice(0, 160)}`);
  }
  expect(body.meta?.status, what).toBe(status);
  expect(body, what).toHaveProperty("data");
  if (status !== 200) expect(typeof body.meta?.error, what).toBe("string");
}

const sessionOnly = (path: string) => path.includes("/api_keys") || path.startsWith("/auth/");
let cases = 0;
let serverErrors = 0;

describe.each(catalog.map((e) => [`${e.spec.method} ${e.spec.path}`, e] as const))("%s", (_n, e) => {
  it(
    "answers every mutation in the envelope, and writes nothing when it refuses",
    { timeout: 120_000 },
    async ({ server: s, app: a }) => {
      const versions = (["v1", "v2"] as const).filter((v) => e.spec[v]);
      const names = paramNames((e.spec.v2 ?? e.spec.v1)!.params);
      const auth: Record<string, string> = sessionOnly(e.spec.path)
        ? { cookie: session.cookie, "X-CSRF-Token": session.csrf }
        : { Authorization: `Token ${a.token}` };
      for (const [i, c] of casesFor(a, e, names).entries()) {
        // The presence sweep writes on its own timer, two minutes after a case set a user online: it runs here, before
        // the picture, so that it cannot land between a refused case's picture and its check.
        await sweepPresence(s.db, a.app.id, new Date(Date.now() + 86_400_000));
        const print = await fingerprint(s.db);
        const v = versions[i % versions.length]!;
        const method = c.method ?? e.spec.method;
        const template = c.pathValue
          ? e.spec.path.replace(`{${c.pathValue[0]}}`, c.pathValue[1])
          : e.spec.path;
        const path = `/api/${v}${fillPath(template, o)}`;
        const what = `${v} ${method} ${c.what}`;
        const inQuery = method === "GET" || method === "HEAD" || method === "OPTIONS" || method === "DELETE";
        let url = path;
        const headers: Record<string, string> = { ...auth };
        let body: string | Uint8Array<ArrayBuffer> | undefined;
        if (c.raw) {
          headers["content-type"] = c.raw.type;
          body = c.raw.body;
        } else if (c.params && inQuery) {
          const q = new URLSearchParams();
          for (const [k, x] of Object.entries(c.params))
            q.set(k, typeof x === "string" ? x : x instanceof Raw ? x.text : JSON.stringify(x));
          url += `?${q.toString()}`;
        } else if (c.params) {
          headers["content-type"] = "application/json";
          body = jsonText(c.params);
        }
        const r = await s.call(url, { method, headers, body }).catch((err: unknown) => {
          throw new Error(`${what}: ${String(err)}`);
        });
        cases++;
        if (r.status >= 500) serverErrors++;
        if (method === "HEAD" || method === "OPTIONS") {
          expect(r.status, what).toBeLessThan(500);
          continue;
        }
        expectEnvelope(declaresFile(e), r.status, r.text, what);
        // An accepted bulk request goes on writing after its answer: its writes belong to it, not to the next case.
        await jobRunner(s.server.runtime)?.poll("bulk");
        if (r.status !== 200)
          expect(await fingerprint(s.db), `${what}: refused (${r.text.slice(0, 200)}) but wrote`).toBe(print);
      }
    },
  );
});

describe("fuzz totals", () => {
  it("ran a few cases per category for every endpoint", () => {
    console.log(
      `fuzz-refused: ${cases} requests over ${catalog.length} endpoints, ${serverErrors} answered 5xx`,
    );
    expect(cases).toBeGreaterThan(catalog.length * 15);
  });
});
