import type { DocEndpoint } from "@/lib/docs/reference";
import { paramsOf } from "@/lib/docs/params";
import { errorsOf } from "@/lib/docs/errors";
import { responseOf } from "@/lib/docs/response";
import { samplesOf } from "@/lib/docs/samples";
import { exampleRequest, fullUrl, isMultipart } from "@/lib/docs/request";
import { CodeTabs } from "./code-tabs";
import { FieldTree } from "./field-tree";
import { MethodBadge } from "./method-badge";
import { TryIt } from "./try-it";

function AuthNote({ d }: { d: DocEndpoint }) {
  if (d.auth === "none") return <>No authentication.</>;
  if (d.auth === "secret") return <>Its own credential (see the summary); no token or session.</>;
  if (d.auth === "visitor") return <>A messenger visitor&apos;s access token (from /messenger/boot).</>;
  if (d.sessionOnly)
    return (
      <>
        The panel&apos;s session cookie (and <code>X-CSRF-Token</code> on writes)
        {d.version.major >= 3 ? ", or the access token of an operator's login" : ""}. An API token is refused,
        whatever its scopes.
      </>
    );
  return (
    <>
      {d.auth === "optional" ? "Token optional. " : ""}
      {d.scopes.length ? "Token scopes: " : "Any token of the app."}
      {d.scopes.map((s) => (
        <code key={s} className="mr-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs">
          {s}
        </code>
      ))}
      {d.asUserWith && (
        <>
          {" "}
          With <code>{d.asUserWith}</code> also{" "}
          <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">as-user</code>.
        </>
      )}{" "}
      Operator sessions are not scoped.
    </>
  );
}

/** One endpoint: what it takes and answers on the left, requests and the answer's example on the right. */
export function EndpointSection({ d }: { d: DocEndpoint }) {
  const params = paramsOf(d);
  const response = responseOf(d);
  const errors = errorsOf(d);
  const samples = samplesOf(d).map((s) => ({ id: s.language, label: s.label, code: s.code }));
  // Relative to this server: try-it sends it from the page.
  const example = exampleRequest(d, { origin: "" });
  return (
    <section
      id={d.anchor}
      aria-label={`${d.method} ${d.path}`}
      className="scroll-mt-20 border-t border-slate-200 py-10"
    >
      <div className="grid gap-8 lg:grid-cols-2">
        <div className="min-w-0">
          <h2 className="text-xl font-semibold">
            <a href={`#${d.anchor}`} className="hover:underline">
              {d.summary}
            </a>
          </h2>
          <p className="mt-2 flex flex-wrap items-center gap-2 font-mono text-sm">
            <MethodBadge method={d.method} />
            {d.path}
            {d.sessionOnly && (
              <span
                className="rounded bg-violet-100 px-2 py-0.5 font-sans text-xs text-violet-800"
                title="Only an operator's session may call this endpoint, not an API token."
              >
                Operator session only
              </span>
            )}
            {d.deprecated && (
              <span className="rounded bg-amber-100 px-2 py-0.5 font-sans text-xs text-amber-800">
                Deprecated
              </span>
            )}
          </p>
          <p className="mt-3 text-sm text-slate-600">
            <AuthNote d={d} />
          </p>
          <h3 className="mt-6 text-sm font-semibold uppercase tracking-wide text-slate-500">Parameters</h3>
          {params.length === 0 ? (
            <p className="mt-2 text-sm text-slate-500">None.</p>
          ) : (
            <table className="mt-2 w-full text-left text-sm" aria-label="Parameters">
              <thead>
                <tr className="text-xs text-slate-500">
                  <th className="py-1 pr-3 font-medium">Name</th>
                  <th className="py-1 pr-3 font-medium">In</th>
                  <th className="py-1 pr-3 font-medium">Type</th>
                  <th className="py-1 font-medium">Notes</th>
                </tr>
              </thead>
              <tbody>
                {params.map((p) => (
                  <tr key={`${p.in} ${p.name}`} className="border-t border-slate-100 align-top">
                    <th scope="row" className="py-1.5 pr-3 font-mono font-normal">
                      {p.name}
                      {p.required && <span className="ml-1 text-xs text-red-700">required</span>}
                    </th>
                    <td className="py-1.5 pr-3">{p.in}</td>
                    <td className="py-1.5 pr-3 font-mono text-xs">
                      {p.type}
                      {p.nullable ? " | null" : ""}
                    </td>
                    <td className="py-1.5 text-slate-600">
                      {[...p.limits, ...(p.default !== undefined ? [`default ${p.default}`] : [])].join("; ")}
                      {p.description && <span className="block whitespace-pre-line">{p.description}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h3 className="mt-6 text-sm font-semibold uppercase tracking-wide text-slate-500">Response</h3>
          {response.kind === "file" ? (
            <p className="mt-2 text-sm">
              A file, not the envelope: <code>{response.contentType}</code>.
            </p>
          ) : (
            <>
              <p className="mt-2 text-sm text-slate-600">
                <code>data</code> is <span className="font-mono text-xs">{response.dataType}</span>
                {response.fields.length > 0 && (response.dataType.startsWith("array") ? ", each with:" : ":")}
              </p>
              {response.fields.length > 0 && <FieldTree fields={response.fields} />}
            </>
          )}
          <h3 className="mt-6 text-sm font-semibold uppercase tracking-wide text-slate-500">Errors</h3>
          <table className="mt-2 w-full text-left text-sm" aria-label="Errors">
            <tbody>
              {errors.map((e) => (
                <tr key={e.name} className="border-t border-slate-100 align-top">
                  <td className="py-1.5 pr-3 font-mono text-xs">{e.status}</td>
                  <td className="py-1.5 pr-3 font-mono">{e.name}</td>
                  <td className="py-1.5 text-slate-600">{e.when}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="min-w-0 space-y-4 lg:sticky lg:top-20 lg:self-start">
          <CodeTabs tabs={samples} label={`Request example of ${d.method} ${d.path}`} />
          {d.auth !== "secret" && (
            <TryIt
              method={d.method}
              url={fullUrl(example)}
              body={example.body}
              multipart={isMultipart(example)}
              visitor={d.auth === "visitor"}
              sessionOnly={d.sessionOnly}
            />
          )}
          {response.kind === "envelope" && (
            <figure aria-label="Response example" className="overflow-hidden rounded-lg bg-slate-900">
              <figcaption className="border-b border-slate-700 px-4 py-2 text-xs text-slate-300">
                Response example · 200
              </figcaption>
              <pre className="max-h-96 overflow-auto p-4 text-xs text-slate-100">
                <code>{JSON.stringify(response.example, null, 2)}</code>
              </pre>
            </figure>
          )}
        </div>
      </div>
    </section>
  );
}
