import Link from "next/link";
import { conditionDocs, FILTERS_OUTLINE } from "@/lib/leads/filters-doc";
import { endpointHref, resourceHref, resourcesOf, VERSIONS, type DocVersion } from "@/lib/docs/reference";
import { EXAMPLE_ORIGIN } from "@/lib/docs/request";
import { MethodBadge } from "./method-badge";

const V3_EXAMPLE = `# 1. Exchange the API key for a pair (the key sent as any call sends it)
curl -X POST ${EXAMPLE_ORIGIN}/api/v3/auth/token \\
  -H "Authorization: Token rly_…" -d grant_type=api_key
# {"data": {"access_token": "eyJ…", "refresh_token": "rlr_…", "token_type": "Bearer", "expires_in": 300}, …}

# 2. Call any endpoint under /api/v3 with the access token
curl ${EXAMPLE_ORIGIN}/api/v3/ping -H "Authorization: Bearer eyJ…"

# 3. Before it expires (5 minutes), refresh: a new pair; the old refresh token is used up
curl -X POST ${EXAMPLE_ORIGIN}/api/v3/auth/token \\
  -d grant_type=refresh_token -d refresh_token=rlr_…`;

const ENVELOPE = `{
  "data": { … },
  "meta": { "status": 200 }
}

{
  "data": {},
  "meta": {
    "status": 400,
    "error": "ValidationError",
    "error_message": "Invalid parameters: id.",
    "error_fields": { "id": "must be a positive ID" },
    "request_id": "5f2a9c1e04000001"
  }
}`;

/** The reference's first page for a version: how to call the API at all, then every resource and endpoint. */
export function Overview({ version }: { version: DocVersion }) {
  const groups = resourcesOf(version);
  return (
    <div className="max-w-4xl">
      <h1 className="text-3xl font-semibold">API reference</h1>
      <p className="mt-3 text-slate-600">
        The Relay customer-messaging API, version {version.major}. {version.note}
      </p>
      <h2 className="mt-8 text-lg font-semibold">Base URLs and versions</h2>
      <ul className="mt-2 space-y-1 text-sm">
        {VERSIONS.map((v) => (
          <li key={v.slug}>
            <Link className="text-blue-700 underline" href={`/docs/${v.slug}`}>
              {v.label}
            </Link>{" "}
            <code>
              {EXAMPLE_ORIGIN}
              {v.basePath}
            </code>
            {v.deprecated && (
              <span className="ml-2 rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-800">Deprecated</span>
            )}
            {v.isDefault && (
              <span className="ml-2 rounded bg-emerald-100 px-2 py-0.5 text-xs text-emerald-800">
                Default
              </span>
            )}
            <span className="ml-2 text-slate-600">{v.note}</span>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm text-slate-600">
        Machine-readable:{" "}
        <a className="text-blue-700 underline" href="/api/openapi.json">
          /api/openapi.json
        </a>
        ,{" "}
        <a className="text-blue-700 underline" href="/api/v1/openapi.json">
          /api/v1/openapi.json
        </a>{" "}
        and{" "}
        <a className="text-blue-700 underline" href="/api/v3/openapi.json">
          /api/v3/openapi.json
        </a>
        : these pages are generated from the same contracts.
      </p>
      <h2 className="mt-8 text-lg font-semibold">Authentication</h2>
      <p className="mt-2 text-sm text-slate-700">
        Send an API key as <code>Authorization: Token &lt;key&gt;</code> (or <code>Bearer</code>, or the{" "}
        <code>auth_token</code> parameter). A key holds scopes; each endpoint names the scopes it needs. The
        panel&apos;s operator sessions (a cookie and a CSRF token) are not scoped. Parameters may come in the
        query string, a form body, multipart or JSON; arrays and objects are JSON-encoded text in query and
        form.
      </p>
      <h2 className="mt-8 text-lg font-semibold">The envelope</h2>
      <p className="mt-2 text-sm text-slate-700">
        Every answer is <code>{"{data, meta}"}</code> and <code>meta.status</code> equals the HTTP status; an
        error names itself in <code>meta.error</code>. With <code>id_as_string=1</code> every 64-bit integer
        is sent as a string.
      </p>
      <pre className="mt-3 overflow-x-auto rounded bg-slate-900 p-4 text-xs text-slate-100">{ENVELOPE}</pre>
      <h2 className="mt-8 text-lg font-semibold">Resources</h2>
      <div className="mt-3 grid gap-6 sm:grid-cols-2">
        {groups.map((g) => (
          <section key={g.resource.slug} aria-label={g.resource.name}>
            <h3 className="font-medium">
              <Link className="text-blue-700 underline" href={resourceHref(version, g.resource.slug)}>
                {g.resource.name}
              </Link>
            </h3>
            <ul className="mt-1 space-y-0.5 text-xs">
              {g.endpoints.map((d) => (
                <li key={d.anchor}>
                  <Link href={endpointHref(d)} className="hover:underline">
                    <MethodBadge method={d.method} /> <span className="font-mono">{d.path}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
      <section id="v3" className="mt-10 border-t border-slate-200 pt-6" aria-label="Version 3">
        <h2 className="text-lg font-semibold">Version 3: access and refresh tokens</h2>
        <p className="mt-2 text-sm text-slate-700">
          Every endpoint answers under <code>/api/v3</code> as in version 2. A v3 call may also authenticate
          with a short-lived access token, <code>Authorization: Bearer &lt;access_token&gt;</code>: a signed
          JWT (EdDSA) carrying the app, the key and its scopes, valid 5 minutes. Refresh tokens are single
          use: using one twice revokes its whole chain. See{" "}
          <Link className="text-blue-700 underline" href="/docs/v3/auth">
            Auth (v3)
          </Link>
          .
        </p>
        <pre className="mt-3 overflow-x-auto rounded bg-slate-900 p-4 text-xs text-slate-100">
          {V3_EXAMPLE}
        </pre>
      </section>
      <section id="filters" className="mt-10 border-t border-slate-200 pt-6" aria-label="Filters grammar">
        <h2 className="text-lg font-semibold">Filters grammar</h2>
        <p className="mt-2 text-sm text-slate-700">{FILTERS_OUTLINE}</p>
        <table className="mt-3 w-full text-left text-sm">
          <thead>
            <tr className="text-slate-500">
              <th className="py-1 pr-4 font-medium">Condition types</th>
              <th className="py-1 pr-4 font-medium">Value</th>
              <th className="py-1 font-medium">Properties</th>
            </tr>
          </thead>
          <tbody>
            {conditionDocs().map((c) => (
              <tr key={c.types.join()} className="border-t border-slate-100">
                <td className="py-1 pr-4 font-mono">{c.types.join(", ")}</td>
                <td className="py-1 pr-4 font-mono">{c.value}</td>
                <td className="py-1 text-slate-600">{c.appliesTo.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
