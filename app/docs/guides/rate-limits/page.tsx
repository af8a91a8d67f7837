import { RATE_LIMIT, RETRY_EXAMPLE } from "@/lib/docs/guides/requests";
import { Code, GuidePage, guideMetadata, Section } from "../_components/guide-page";

const SLUG = "rate-limits";
export const metadata = guideMetadata(SLUG);

export default function RateLimitsGuide() {
  const r = RATE_LIMIT;
  return (
    <GuidePage slug={SLUG}>
      <Section id="limits" title="The limit">
        <p>
          Every API request draws from a token bucket: {r.perSecond} requests a second, in bursts of up to{" "}
          {r.burst} (the defaults; a server sets its own with <code>RATE_LIMIT_PER_SECOND</code> and{" "}
          <code>RATE_LIMIT_BURST</code>). There is one bucket per API key, per operator session, per messenger
          visitor, and per client address for requests without credentials. With Redis configured, every
          instance draws from the same buckets.
        </p>
      </Section>
      <Section id="throttled" title="When it is reached">
        <p>
          The answer is <code>{r.status}</code> with <code>&quot;error&quot;: &quot;Throttled&quot;</code> and{" "}
          <code>Retry-After</code>: the whole seconds (at least 1) until the bucket has a request again.
          Nothing was done: send the request again after that.
        </p>
        <p>
          <code>Retry-After</code> also comes with a <code>{r.unavailableStatus}</code>{" "}
          <code>ServiceUnavailable</code>: {r.unavailableRetryAfter} s when the database is unreachable, 1 s
          when a change conflicted with concurrent ones and was not made. Both are safe to send again.
        </p>
        <Code code={RETRY_EXAMPLE} label="Retrying after Retry-After" />
      </Section>
      <Section id="sockets" title="Real-time subscriptions">
        <p>
          A socket that asks for too many long replays (<code>subscribe</code> with an <code>after</code> more
          than a page behind) is refused whole: the ack has <code>subscribed: []</code> and{" "}
          <code>error: &quot;Throttled&quot;</code>. Wait a few seconds and subscribe again; catching up from
          the last message received is never limited.
        </p>
      </Section>
    </GuidePage>
  );
}
