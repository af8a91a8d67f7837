import Link from "next/link";
import {
  asUserEndpoints,
  AUTH_CALLS,
  scopeRows,
  SESSION,
  sessionOnlyEndpoints,
  TOKENS,
  type EndpointLink,
} from "@/lib/docs/guides/auth";
import { curlOf } from "@/lib/docs/guides/calls";
import { Code, GuidePage, guideMetadata, Section } from "../_components/guide-page";

const SLUG = "authentication";
export const metadata = guideMetadata(SLUG);

function Links({ links }: { links: EndpointLink[] }) {
  return (
    <ul className="mt-1 columns-1 font-mono text-xs sm:columns-2">
      {links.map((l) => (
        <li key={l.label}>
          <Link className="text-blue-700 hover:underline" href={l.href}>
            {l.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

export default function AuthenticationGuide() {
  const c = AUTH_CALLS;
  return (
    <GuidePage slug={SLUG}>
      <Section id="api-keys" title="API keys">
        <p>
          An integration calls the API with an API key of one app (<code>rly_…</code>, created by an operator
          in Settings → API keys), in the <code>Authorization</code> header as <code>Token &lt;key&gt;</code>{" "}
          (<code>Bearer &lt;key&gt;</code> works too) or, where a header cannot be set, as the{" "}
          <code>auth_token</code> parameter. A missing, unknown or revoked key is{" "}
          <code>AuthenticationFailed</code> (401); repeated unknown keys from one address are throttled.
        </p>
        <Code code={curlOf(c.withKey)} label="Calling with an API key" />
        <p>
          <code>GET /ping</code> answers who the caller is: the key&apos;s app and scopes.
        </p>
      </Section>

      <Section id="scopes" title="Scopes">
        <p>
          A key holds scopes, chosen when it is created; each endpoint names the scopes a key needs (its
          reference says which), and a key without one of them gets <code>PermissionDenied</code> (403) naming
          it. Operator sessions are not scoped.
        </p>
        <table className="w-full text-left text-sm" aria-label="Scopes">
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th className="py-1 pr-4">Scope</th>
              <th className="py-1">Allows</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {scopeRows().map((r) => (
              <tr key={r.scope} id={`scope-${r.scope}`} className="align-top">
                <td className="py-1.5 pr-4 font-mono text-xs">{r.scope}</td>
                <td className="py-1.5">
                  {r.description}
                  {r.endpoints.length > 0 && (
                    <details>
                      <summary className="cursor-pointer text-xs text-slate-500">
                        {r.endpoints.length} endpoint{r.endpoints.length === 1 ? "" : "s"}
                      </summary>
                      <Links links={r.endpoints} />
                    </details>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section id="sessions" title="Operator sessions">
        <p>
          The panel logs an operator in with <code>POST /auth/login</code>, which sets the{" "}
          <code>{SESSION.cookie}</code> cookie and answers the operator with a <code>csrf_token</code>.
          Requests with the cookie act as that operator on every app they belong to; every write must also
          send the token as <code>{SESSION.csrfHeader}</code> (a cookie rides along on cross-site requests,
          the header does not).
        </p>
        <Code code={curlOf(c.login)} label="Logging in" />
        <Code code={curlOf(c.me)} label="Reading the session's operator" />
        <Code code={curlOf(c.sessionWrite)} label="A write with the session" />
        <p id="session-only">
          These endpoints are an operator&apos;s own business, and their reference marks them{" "}
          <em>Operator session only</em>: an API key is refused with <code>PermissionDenied</code> (
          <q>{SESSION.refusal}</q>), whatever its scopes.
        </p>
        <Links links={sessionOnlyEndpoints()} />
      </Section>

      <Section id="as-user" title="Acting as the visitor: as-user">
        <p>
          Some writes can be made as the conversation&apos;s visitor rather than as an operator, by a
          parameter (v2 <code>from_user</code>: the user&apos;s ID, or <code>default_user</code>). A key then
          also needs the <code>as-user</code> scope:
        </p>
        <Links links={asUserEndpoints()} />
        <Code code={curlOf(c.asUser)} label="Replying as the visitor" />
      </Section>

      <Section id="self-app" title="$self_app">
        <p>
          Where a parameter is an app ID (<code>/apps/{"{id}"}</code>, <code>app</code>),{" "}
          <code>$self_app</code> stands for the key&apos;s own app (for an operator session: the app named by{" "}
          <code>app</code>, else their first). Anywhere else it is plain text, which an ID parameter refuses.
        </p>
        <Code code={curlOf(c.selfApp)} label="Using $self_app" />
      </Section>

      <Section id="v3" title="Version 3: access and refresh tokens">
        <p>
          Under <code>/api/v3</code> a call may also authenticate with a short-lived access token (
          <code>Authorization: Bearer &lt;access_token&gt;</code>), a {TOKENS.algorithm}-signed JWT issued by{" "}
          <code>{TOKENS.issuer}</code>, valid {TOKENS.accessSeconds} s, whose <code>scope</code> claim holds
          the key&apos;s scopes. Keys and sessions keep working. Exchange a key for a pair:
        </p>
        <Code code={curlOf(c.exchange)} label="Exchanging an API key" />
        <p>
          The answer is <code>{'{access_token, refresh_token, token_type: "Bearer", expires_in}'}</code>. Call
          with the access token:
        </p>
        <Code code={curlOf(c.withAccess)} label="Calling with an access token" />
        <p>
          Before it expires, refresh: the refresh token (<code>rlr_…</code>, valid {TOKENS.refreshDays} days)
          is the only credential the call needs.
        </p>
        <Code code={curlOf(c.refresh)} label="Refreshing" />
        <ul className="list-disc pl-5">
          <li>
            <strong>Rotation:</strong> each refresh uses its token up and answers a new pair, for the key as
            it is now (its current scopes; a revoked key refreshes nothing).
          </li>
          <li>
            <strong>Reuse revokes the family:</strong> a refresh token used a second time means someone else
            holds a copy. Every token descended from the same exchange or login is revoked, access tokens
            included, and the call is refused: exchange the key (or log in) again.
          </li>
          <li>
            An access token never mints a pair (<code>grant_type=api_key</code> wants the key itself), and is
            refused under v1 and v2.
          </li>
        </ul>
        <p>
          An operator logs in under v3 with the same credentials and gets a pair instead of a cookie; its
          access token acts as that operator (session-only endpoints included) and needs no CSRF token.
        </p>
        <Code code={curlOf(c.operatorLogin)} label="Operator login in version 3" />
        <p>
          To verify access tokens yourself, fetch the public keys (a JWKS document, cacheable for a minute).
          Signing keys rotate every {TOKENS.keyRotateDays} days; a retired key stays published{" "}
          {TOKENS.retiredKeptSeconds} s, longer than any token it signed lives.
        </p>
        <Code code={curlOf(c.jwks)} label="The public keys" />
      </Section>
    </GuidePage>
  );
}
