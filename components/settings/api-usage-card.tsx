import Link from "next/link";
import { SectionCard } from "./section-card";

/** How a key is used: as it is, or (API v3) exchanged for short-lived access tokens. Examples only, no secrets. */
export function ApiUsageCard() {
  const plain = `curl https://<your-relay>/api/ping \\
  -H "Authorization: Token rly_…"`;
  const v3 = `# Exchange the key (once), then call with the access token
curl -X POST https://<your-relay>/api/v3/auth/token \\
  -H "Authorization: Token rly_…" -d grant_type=api_key
curl https://<your-relay>/api/v3/ping -H "Authorization: Bearer <access_token>"
# Every 5 minutes: a new pair (each refresh token works once)
curl -X POST https://<your-relay>/api/v3/auth/token \\
  -d grant_type=refresh_token -d refresh_token=<refresh_token>`;
  return (
    <SectionCard
      title="Using a key"
      titleId="api-usage-title"
      description={
        <>
          Send the key with each call, or with API v3 exchange it for access tokens that expire after 5
          minutes, so the key itself leaves your backend rarely. Revoking the key ends both at once.{" "}
          <Link className="text-blue-700 underline" href="/docs#v3">
            API v3 reference
          </Link>
        </>
      }
    >
      <div className="grid gap-4 lg:grid-cols-2">
        <figure aria-labelledby="api-usage-plain">
          <figcaption id="api-usage-plain" className="text-sm font-medium text-slate-800">
            The key on every call (v1, v2, v3)
          </figcaption>
          <pre className="mt-2 overflow-x-auto rounded-lg bg-slate-900 p-3 text-xs text-slate-100">
            {plain}
          </pre>
        </figure>
        <figure aria-labelledby="api-usage-v3">
          <figcaption id="api-usage-v3" className="text-sm font-medium text-slate-800">
            v3: access and refresh tokens
          </figcaption>
          <pre className="mt-2 overflow-x-auto rounded-lg bg-slate-900 p-3 text-xs text-slate-100">{v3}</pre>
        </figure>
      </div>
    </SectionCard>
  );
}
