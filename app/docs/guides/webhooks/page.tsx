import Link from "next/link";
import { CodeTabs } from "../../_components/code-tabs";
import { FieldTree } from "../../_components/field-tree";
import { resourceHref, resourcesOf, versionBySlug } from "@/lib/docs/reference";
import {
  DELIVERY,
  retrySchedule,
  sampleSignature,
  VERIFY_EXAMPLES,
  webhookEvents,
} from "@/lib/docs/guides/webhooks";
import { Code, GuidePage, guideMetadata, Section } from "../_components/guide-page";

const SLUG = "webhooks";
export const metadata = guideMetadata(SLUG);

const duration = (s: number) => (s < 60 ? `${s} s` : s < 3600 ? `${s / 60} min` : `${s / 3600} h`);

export default function WebhooksGuide() {
  const events = webhookEvents();
  const sig = sampleSignature();
  // Webhooks are managed through version 2 only.
  const v2 = versionBySlug("v2");
  const api = v2 && resourcesOf(v2).find((g) => g.resource.slug === "webhooks");
  return (
    <GuidePage slug={SLUG}>
      <Section id="subscriptions" title="Subscriptions">
        <p>
          A webhook is a URL, the events it receives and a signing secret (<code>whsec_…</code>, generated
          unless you give one).{" "}
          {api && v2 ? (
            <>
              Create and manage them with the{" "}
              <Link className="text-blue-700 hover:underline" href={resourceHref(v2, api.resource.slug)}>
                Webhooks endpoints
              </Link>{" "}
              (version 2).
            </>
          ) : null}{" "}
          Pausing a webhook fails its pending deliveries, so that they do not arrive stale when it is resumed.
        </p>
      </Section>

      <Section id="requests" title="Requests">
        <p>
          Each delivery is a <code>POST</code> of JSON with <code>User-Agent: {DELIVERY.userAgent}</code> and
          these headers:
        </p>
        <ul className="list-disc pl-5">
          <li>
            <code>X-Webhook-Id</code>: the delivery&apos;s ID, also the body&apos;s <code>id</code>; the same
            on every attempt, so use it to ignore a delivery you already handled.
          </li>
          <li>
            <code>X-Webhook-Timestamp</code>: Unix seconds when this attempt was sent.
          </li>
          <li>
            <code>X-Webhook-Signature</code>: <code>sha256=</code> then the hex HMAC-SHA256, keyed with the
            webhook&apos;s secret, of the timestamp, a dot and the raw body.
          </li>
        </ul>
        <p>
          The body is <code>{"{id, type, app, created, data}"}</code>: <code>type</code> is the event below,{" "}
          <code>created</code> Unix seconds when the event happened, <code>data</code> its payload. The body
          is the same, byte for byte, on every attempt.
        </p>
      </Section>

      <Section id="signatures" title="Verifying signatures">
        <p>
          Compute the signature over the body exactly as received (before parsing it) and compare in constant
          time.
        </p>
        <CodeTabs label="Receiver language" tabs={VERIFY_EXAMPLES.map((e) => ({ ...e }))} />
        <p>
          To check yours: secret <code>{sig.secret}</code>, timestamp <code>{sig.timestamp}</code> and body{" "}
          <code>{sig.body}</code> give <code className="break-all">{sig.header}</code>.
        </p>
      </Section>

      <Section id="retries" title="Retries and backoff">
        <p>
          A delivery succeeds on a 2xx answer within {DELIVERY.timeoutSeconds} s. Anything else fails the
          attempt: another status, a timeout, a connection error, or a redirect (redirects are not followed).
          The first attempt is made right after the event is committed; after a failure, the next one waits:
        </p>
        <ul className="list-disc pl-5">
          {retrySchedule().map((r) => (
            <li key={r.attempt}>
              after failure {r.attempt}
              {r.seconds === DELIVERY.retryMaxSeconds ? " and every later one" : ""}: {duration(r.seconds)}
            </li>
          ))}
        </ul>
        <p>
          Each wait varies by ±10%, so that a receiver coming back is not hit by every retry at once. Retries
          stop {DELIVERY.retryWindowHours} h after the event: the last one is pulled in to that time, and a
          failure after it marks the delivery <code>failed</code>. The delivery log (attempts, last status,
          next attempt) is in the API.
        </p>
      </Section>

      <Section id="events" title="Events">
        <p>
          Each <code>data</code> is the API&apos;s own object for the event (a conversation, a part, a user),
          as the real-time channel of the same event carries it.
        </p>
        {events.map((e) => (
          <div
            key={e.kind}
            id={`event-${e.kind.replace(/\./g, "-")}`}
            className="border-t border-slate-200 pt-4"
          >
            <h3 className="font-mono text-sm font-semibold text-slate-900">{e.kind}</h3>
            <p className="mt-1">{e.description}</p>
            <details className="mt-2">
              <summary className="cursor-pointer text-sm font-medium">Payload fields</summary>
              <FieldTree fields={e.fields} />
            </details>
            <details className="mt-2">
              <summary className="cursor-pointer text-sm font-medium">Example request body</summary>
              <Code code={e.body} label={`${e.kind} example`} />
            </details>
          </div>
        ))}
      </Section>
    </GuidePage>
  );
}
