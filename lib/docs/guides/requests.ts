import { envSchema } from "../../config/env-schema";
import { ERROR_STATUS, UNAVAILABLE_RETRY_AFTER_S } from "../../api/errors";
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER, WAIT_MS } from "../../api/idempotency";
import { EXAMPLE_ORIGIN } from "../request";

/** The idempotency and rate-limit guides' figures, read from the code that applies them. */

/** A setting's value when the environment leaves it unset. */
const defaultOf = (name: "RATE_LIMIT_PER_SECOND" | "RATE_LIMIT_BURST"): number =>
  envSchema.shape[name].parse(undefined);

export const RATE_LIMIT = {
  perSecond: defaultOf("RATE_LIMIT_PER_SECOND"),
  burst: defaultOf("RATE_LIMIT_BURST"),
  status: ERROR_STATUS.Throttled,
  unavailableStatus: ERROR_STATUS.ServiceUnavailable,
  unavailableRetryAfter: UNAVAILABLE_RETRY_AFTER_S,
};

export const IDEMPOTENCY = {
  header: IDEMPOTENCY_HEADER,
  replayedHeader: REPLAYED_HEADER,
  waitSeconds: WAIT_MS / 1000,
  errorStatus: ERROR_STATUS.ValidationError,
};

export const IDEMPOTENCY_EXAMPLE = `curl -X POST ${EXAMPLE_ORIGIN}/api/conversations/123/reply \\
  -H "Authorization: Token rly_…" \\
  -H "${IDEMPOTENCY_HEADER}: 6f1c0d2e-reply-123-1" \\
  -d from_admin=7 \\
  -d body="Thanks, we are on it."`;

export const RETRY_EXAMPLE = `// Waits as the server says, then sends the same request again (with the same Idempotency-Key for a POST).
async function call(url, init, attempts = 5) {
  for (let i = 1; ; i++) {
    const res = await fetch(url, init);
    if ((res.status !== 429 && res.status !== 503) || i === attempts) return res;
    const wait = Number(res.headers.get("Retry-After") ?? "1");
    await new Promise((r) => setTimeout(r, wait * 1000));
  }
}`;
