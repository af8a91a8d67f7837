import { IDEMPOTENCY, IDEMPOTENCY_EXAMPLE } from "@/lib/docs/guides/requests";
import { Code, GuidePage, guideMetadata, Section } from "../_components/guide-page";

const SLUG = "idempotency";
export const metadata = guideMetadata(SLUG);

export default function IdempotencyGuide() {
  const { header, replayedHeader, waitSeconds, errorStatus } = IDEMPOTENCY;
  return (
    <GuidePage slug={SLUG}>
      <Section id="sending" title="Sending a key">
        <p>
          Add <code>{header}</code> to a <code>POST</code>: 1 to 255 printable ASCII characters, unique per
          operation (a UUID does). The first request with a key runs; a repeat with the same key gets the
          first answer back, status, headers and body, with <code>{replayedHeader}: true</code> and its own{" "}
          <code>X-Request-Id</code>. Other methods and requests without credentials ignore the header.
        </p>
        <Code code={IDEMPOTENCY_EXAMPLE} label="Request with an idempotency key" />
      </Section>
      <Section id="scope" title="What a key covers">
        <ul className="list-disc pl-5">
          <li>
            Keys are per caller: an API key, an operator session or a messenger visitor has keys of its own.
          </li>
          <li>
            A key stands for one request: the method, the path and the parameters. The same key with other
            parameters is refused.
          </li>
          <li>A key is kept 24 hours; after that, a request with it runs as new.</li>
          <li>
            An answer of 5xx releases the key (no such answer comes from a request that wrote): sending the
            same request with the same key runs it again.
          </li>
        </ul>
      </Section>
      <Section id="errors" title="Errors">
        <p>
          Each is a <code>ValidationError</code> ({errorStatus}) with <code>error_fields</code> naming{" "}
          <code>{header}</code>:
        </p>
        <ul className="list-disc pl-5">
          <li>
            <code>must be 1 to 255 printable ASCII characters</code>: the key is malformed.
          </li>
          <li>
            <code>was used for a different request</code>: use a new key for a new request.
          </li>
          <li>
            <code>in progress</code>: the first request with the key was still running after the repeat waited{" "}
            {waitSeconds} s. Retry later for its answer.
          </li>
          <li>
            <code>interrupted</code>: the first request stopped before answering (its server went away). It
            may have taken effect and is not run again: check, then use a new key.
          </li>
        </ul>
      </Section>
    </GuidePage>
  );
}
