/**
 * The guides: prose pages beside the reference, at /docs/guides/<slug>. The side navigation and the search read
 * this list, and the tests hold every entry to a page, so a guide cannot be listed without one.
 */
export interface Guide {
  slug: string;
  title: string;
  summary: string;
  /** Words the search matches besides the title (what a reader types for this topic). */
  keywords: readonly string[];
}

export const GUIDES: readonly Guide[] = [
  {
    slug: "authentication",
    title: "Authentication, scopes and v3 tokens",
    summary:
      "API keys and their scopes, operator sessions and the endpoints only they may call, as-user, $self_app, and version 3's access and refresh tokens.",
    keywords: [
      "token",
      "api key",
      "authorization",
      "scope",
      "session",
      "cookie",
      "csrf",
      "as-user",
      "$self_app",
      "jwt",
      "refresh",
      "jwks",
      "bearer",
    ],
  },
  {
    slug: "pagination",
    title: "Pagination",
    summary:
      "Paging lists in each version: v2's paginate_* positions, v1's after and count, the leads' offset and its limit, and the order pages keep.",
    keywords: [
      "paginate",
      "paging",
      "page",
      "cursor",
      "position",
      "after",
      "count",
      "offset",
      "limit",
      "next",
    ],
  },
  {
    slug: "leads-filters",
    title: "Filtering leads",
    summary:
      "The filters tree of the users and leads lists: and/or groups, conditions by property type, events, segments, tags, and the errors a bad filter gets.",
    keywords: ["filters", "filter", "leads", "users", "segment", "condition", "event", "props", "tag"],
  },
  {
    slug: "messenger-js-api",
    title: "Messenger JS API and identity verification",
    summary:
      "The install snippet, the methods a page calls, the callbacks, and how a logged-in user is verified.",
    keywords: [
      "javascript",
      "snippet",
      "install",
      "carrotquest",
      "auth",
      "identify",
      "track",
      "callback",
      "hash",
      "hmac",
    ],
  },
  {
    slug: "webhooks",
    title: "Webhooks",
    summary:
      "Every event a subscription can receive with its payload, signature verification, retries and backoff.",
    keywords: ["events", "signature", "hmac", "retries", "backoff", "deliveries", "payload"],
  },
  {
    slug: "idempotency",
    title: "Idempotency keys",
    summary:
      "Sending a POST again without doing it twice: the Idempotency-Key header, replays and their errors.",
    keywords: ["idempotency-key", "retry", "replay", "duplicate", "post"],
  },
  {
    slug: "rate-limits",
    title: "Rate limits",
    summary: "How many requests a key may make, the 429 answer, and Retry-After.",
    keywords: ["throttled", "429", "retry-after", "503", "limit", "burst"],
  },
  {
    slug: "realtime",
    title: "Real-time channels",
    summary:
      "Socket subscriptions: the channels, who may listen, each message's payload, and the messenger's channel.",
    keywords: ["socket", "socket.io", "subscribe", "channel", "websocket", "live", "messenger"],
  },
];

export function guideHref(slug: string): string {
  return `/docs/guides/${slug}`;
}

export function guideBySlug(slug: string): Guide | undefined {
  return GUIDES.find((g) => g.slug === slug);
}
