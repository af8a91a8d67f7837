import { describe, expect, it } from "vitest";
import { versionSpecOf } from "../api/endpoint-versions";
import { routes } from "../compose/catalog";
import { errorsOf } from "./errors";
import { exampleOf } from "./example";
import { exampleRequest } from "./request";
import { LANGUAGES, samplesOf } from "./samples";
import { endpointsOf, resourcesOf, VERSIONS, zodResponse } from "./reference";

describe.each(VERSIONS.map((v) => [v.slug, v] as const))("the %s reference", (_, version) => {
  const groups = resourcesOf(version);
  const docs = endpointsOf(version);

  it("shows every endpoint the version serves on exactly one resource page", () => {
    const served = routes.filter((e) => versionSpecOf(e.spec, version.major));
    expect(served.length).toBeGreaterThan(0);
    for (const e of served) {
      const pages = groups.filter((g) => g.endpoints.some((d) => d.endpoint === e));
      expect(
        pages.map((g) => g.resource.slug),
        `${e.spec.method} ${e.spec.path}`,
      ).toHaveLength(1);
      expect(pages[0]!.endpoints.filter((d) => d.endpoint === e)).toHaveLength(1);
    }
    expect(groups.flatMap((g) => g.endpoints)).toHaveLength(served.length);
  });

  it("gives every endpoint an anchor of its own", () => {
    const anchors = docs.map((d) => d.anchor);
    expect(new Set(anchors).size).toBe(anchors.length);
    for (const a of anchors) expect(a).toMatch(/^(get|post|put|patch|delete)-[a-z0-9-]+$/);
  });

  it("has a request example in every language for every endpoint", () => {
    for (const d of docs) {
      const samples = samplesOf(d);
      expect(samples.map((s) => s.language)).toEqual(LANGUAGES.map((l) => l.id));
      const url = exampleRequest(d).url;
      for (const s of samples) expect(s.code, `${s.language} of ${d.anchor}`).toContain(url);
    }
  });

  it("has a response example that its own response schema accepts, through JSON", () => {
    let checked = 0;
    for (const d of docs) {
      const schema = zodResponse(d);
      if (!schema) continue;
      expect(d.dataSchema, d.anchor).toBeDefined();
      const example: unknown = JSON.parse(JSON.stringify(exampleOf(d.dataSchema!, d.components)));
      const parsed = schema.safeParse(example);
      expect(parsed.error?.issues ?? [], `${d.method} ${d.path}`).toEqual([]);
      checked++;
    }
    expect(checked).toBeGreaterThan(docs.length / 2);
  });

  it("sends example parameters that the endpoint's own parameter schema accepts", () => {
    for (const d of docs) {
      const r = exampleRequest(d);
      const files = Object.fromEntries(Object.keys(r.files).map((k) => [k, new File(["a"], "file.csv")]));
      const input = { ...exampleValuesOf(d), ...files };
      const parsed = d.form.params.safeParse(input);
      expect(parsed.error?.issues ?? [], `${d.method} ${d.path}`).toEqual([]);
    }
  });

  it("names the errors the edge can answer: lookups where the path has an ID, auth by mode, always 429", () => {
    for (const d of docs) {
      const names = errorsOf(d).map((e) => e.name);
      expect(names).toContain("Throttled");
      expect(names.includes("LookupError"), d.anchor).toBe(/\{\w*id\}/.test(d.path));
      expect(names.includes("AuthenticationFailed"), d.anchor).toBe(d.auth !== "none" && d.auth !== "secret");
      for (const e of errorsOf(d)) expect(e.example.meta.status).toBe(e.status);
    }
  });
});

/** The values a request example sends, by parameter name, query text decoded back where it was JSON. */
function exampleValuesOf(d: ReturnType<typeof endpointsOf>[number]): Record<string, unknown> {
  const r = exampleRequest(d);
  const out: Record<string, unknown> = { ...r.body };
  for (const [k, v] of Object.entries(r.query)) out[k] = v;
  const filled = new URL(r.url).pathname.slice(d.version.basePath.length).split("/");
  d.path.split("/").forEach((part, i) => {
    const m = /^\{(\w+)\}$/.exec(part);
    if (m?.[1]) out[m[1]] = decodeURIComponent(filled[i] ?? "");
  });
  return out;
}
