import type { Metadata } from "next";
import { catalog, v3Only } from "@/lib/compose/catalog";
import { openApiDocument } from "@/lib/api/openapi";
import { conditionDocs, FILTERS_OUTLINE } from "@/lib/leads/filters-doc";

export const metadata: Metadata = { title: "API reference · Relay" };

type Json = Record<string, unknown>;
interface Param {
  name: string;
  where: string;
  type: string;
  required: boolean;
  detail: string;
}

function typeOf(s: Json | undefined): string {
  if (!s) return "";
  const t = s.type;
  const base = Array.isArray(t) ? t.join(" | ") : typeof t === "string" ? t : s.anyOf ? "any" : "value";
  return s.enum ? (s.enum as string[]).join(" | ") : base;
}

const text = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : "…");

function detail(s: Json | undefined): string {
  if (!s) return "";
  const bits: string[] = [];
  if (typeof s.description === "string") bits.push(s.description);
  if (s.minimum !== undefined || s.maximum !== undefined)
    bits.push(`${text(s.minimum)} to ${text(s.maximum)}`);
  if (s.maxLength !== undefined) bits.push(`≤ ${text(s.maxLength)} chars`);
  return bits.join("; ");
}

function paramsOf(op: Json): Param[] {
  const out: Param[] = ((op.parameters ?? []) as Json[]).map((p) => ({
    name: String(p.name),
    where: String(p.in),
    type: typeOf(p.schema as Json),
    required: Boolean(p.required),
    detail: detail(p.schema as Json),
  }));
  const body = (op.requestBody as Json | undefined)?.content as Record<string, { schema: Json }> | undefined;
  const schema = body?.["application/x-www-form-urlencoded"]?.schema;
  const req = new Set((schema?.required ?? []) as string[]);
  for (const [name, s] of Object.entries((schema?.properties ?? {}) as Record<string, Json>)) {
    out.push({ name, where: "body", type: typeOf(s), required: req.has(name), detail: detail(s) });
  }
  return out;
}

export default function DocsPage() {
  const v2 = openApiDocument(catalog, 2);
  const v1 = openApiDocument(catalog, 1);
  const v1Paths = v1.paths as Record<string, Json>;
  const ops = Object.entries(v2.paths as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      path,
      method,
      op,
      inV1: Boolean(v1Paths[path]?.[method]),
    })),
  );
  return (
    <main className="mx-auto max-w-5xl px-6 py-10 text-slate-900">
      <h1 className="text-3xl font-semibold">API reference</h1>
      <p className="mt-3 text-slate-600">
        Base URL <code>/api</code> (version 2, current), <code>/api/v3</code> (access and refresh tokens,{" "}
        <a className="text-blue-700 underline" href="#v3">
          below
        </a>
        ) or <code>/api/v1</code> (deprecated). Authenticate with{" "}
        <code>Authorization: Token &lt;token&gt;</code>, <code>Bearer</code>, or <code>auth_token</code>.
        Every response is <code>{"{data, meta}"}</code> and <code>meta.status</code> equals the HTTP status.
        Machine-readable:{" "}
        <a className="text-blue-700 underline" href="/api/openapi.json">
          /api/openapi.json
        </a>{" "}
        and{" "}
        <a className="text-blue-700 underline" href="/api/v1/openapi.json">
          /api/v1/openapi.json
        </a>{" "}
        and{" "}
        <a className="text-blue-700 underline" href="/api/v3/openapi.json">
          /api/v3/openapi.json
        </a>
        .
      </p>
      {ops.map(({ path, method, op, inV1 }) => (
        <section
          key={`${method} ${path}`}
          className="mt-8 border-t border-slate-200 pt-6"
          aria-label={`${method} ${path}`}
        >
          <h2 className="font-mono text-lg">
            <span className="mr-2 rounded bg-slate-800 px-2 py-0.5 text-sm uppercase text-white">
              {method}
            </span>
            {path}
          </h2>
          <p className="mt-1 text-slate-700">{typeof op.summary === "string" ? op.summary : ""}</p>
          <p className="text-sm text-slate-500">{inV1 ? "Versions 1 and 2" : "Version 2"}</p>
          {paramsOf(op).length > 0 && (
            <table className="mt-3 w-full text-left text-sm">
              <thead>
                <tr className="text-slate-500">
                  <th className="py-1 pr-4 font-medium">Parameter</th>
                  <th className="py-1 pr-4 font-medium">In</th>
                  <th className="py-1 pr-4 font-medium">Type</th>
                  <th className="py-1 font-medium">Notes</th>
                </tr>
              </thead>
              <tbody>
                {paramsOf(op).map((p) => (
                  <tr key={p.name} className="border-t border-slate-100">
                    <td className="py-1 pr-4 font-mono">
                      {p.name}
                      {p.required && (
                        <span className="ml-1 text-red-700" title="required">
                          *
                        </span>
                      )}
                    </td>
                    <td className="py-1 pr-4">{p.where}</td>
                    <td className="py-1 pr-4 font-mono">{p.type}</td>
                    <td className="whitespace-pre-line py-1 text-slate-600">{p.detail}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ))}
      <V3Tokens />
      <FiltersGrammar />
    </main>
  );
}

const V3_EXAMPLE = `# 1. Exchange the API key for a pair (the key sent as any call sends it)
curl -X POST https://relay.example.com/api/v3/auth/token \\
  -H "Authorization: Token rly_…" -d grant_type=api_key
# {"data": {"access_token": "eyJ…", "refresh_token": "rlr_…", "token_type": "Bearer", "expires_in": 300}, …}

# 2. Call any endpoint under /api/v3 with the access token
curl https://relay.example.com/api/v3/ping -H "Authorization: Bearer eyJ…"

# 3. Before it expires (5 minutes), refresh: a new pair; the old refresh token is used up
curl -X POST https://relay.example.com/api/v3/auth/token \\
  -d grant_type=refresh_token -d refresh_token=rlr_…`;

/** Version 3: the token exchange, with the endpoints only v3 has (from the v3 OpenAPI document). */
function V3Tokens() {
  const doc = openApiDocument([...catalog, ...v3Only], 3);
  const own = new Set(v3Only.map((e) => `${e.spec.method.toLowerCase()} ${e.spec.path}`));
  own.add("post /auth/login");
  const ops = Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => own.has(`${method} ${path}`))
      .map(([method, op]) => ({ path, method, summary: text(op.summary) })),
  );
  return (
    <section id="v3" className="mt-8 border-t border-slate-200 pt-6" aria-label="Version 3">
      <h2 className="text-lg font-semibold">Version 3: access and refresh tokens</h2>
      <p className="mt-1 text-slate-700">
        Every endpoint above answers under <code>/api/v3</code> as in version 2. A v3 call may also
        authenticate with a short-lived access token, <code>Authorization: Bearer &lt;access_token&gt;</code>:
        a signed JWT (EdDSA) carrying the app, the key and its scopes, valid 5 minutes. API keys keep working
        as they are. Refresh tokens are single use: using one twice revokes its whole chain. Revoking the key
        (or removing the operator) ends its tokens at once.
      </p>
      <pre className="mt-3 overflow-x-auto rounded bg-slate-900 p-4 text-sm text-slate-100">{V3_EXAMPLE}</pre>
      <ul className="mt-3 text-sm">
        {ops.map((o) => (
          <li key={`${o.method} ${o.path}`}>
            <span className="font-mono uppercase">{o.method}</span>{" "}
            <span className="font-mono">{o.path}</span> — {o.summary}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The `filters` parameter's grammar, from the parser's own table (lib/leads/filters-doc.ts). */
function FiltersGrammar() {
  return (
    <section id="filters" className="mt-8 border-t border-slate-200 pt-6" aria-label="Filters grammar">
      <h2 className="text-lg font-semibold">Filters grammar</h2>
      <p className="mt-1 text-slate-700">{FILTERS_OUTLINE}</p>
      <table className="mt-3 w-full text-left text-sm">
        <thead>
          <tr className="text-slate-500">
            <th className="py-1 pr-4 font-medium">Condition types</th>
            <th className="py-1 pr-4 font-medium">Value</th>
            <th className="py-1 font-medium">Properties</th>
          </tr>
        </thead>
        <tbody>
          {conditionDocs().map((d) => (
            <tr key={d.types.join()} className="border-t border-slate-100">
              <td className="py-1 pr-4 font-mono">{d.types.join(", ")}</td>
              <td className="py-1 pr-4 font-mono">{d.value}</td>
              <td className="py-1 text-slate-600">{d.appliesTo.join(", ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
