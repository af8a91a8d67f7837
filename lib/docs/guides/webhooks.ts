import type { z } from "zod";
import { SOCKET_SCHEMAS } from "../../realtime/contract";
import { TEST_EVENT_TYPE, WEBHOOK_KINDS, type WebhookKind } from "../../eventlog/webhook-kinds";
import { webhookBody } from "../../webhooks/deliveries";
import { DEFAULTS } from "../../webhooks/dispatcher";
import { SEND_TIMEOUT_MS, USER_AGENT, signWebhook } from "../../webhooks/send";
import { schemaDoc, type SchemaDoc } from "./schema-doc";

/**
 * The webhooks guide's model. A delivery's `data` is the event-log row's payload, so each kind's payload schema is
 * the socket contract's schema of the row type the kind is read from (lib/eventlog/webhook-kinds.ts `webhookKind`;
 * the tests hold this table to that function).
 */
type LogType = keyof typeof SOCKET_SCHEMAS;

interface Source {
  logType: LogType;
  /** What the payload must hold for the row to be this kind rather than a sibling of the same row type. */
  patch?: Record<string, unknown>;
  description: string;
}

export const WEBHOOK_SOURCES: Record<WebhookKind, Source> = {
  "conversation.started": {
    logType: "conversation_started_user",
    description: "A visitor started a conversation. The conversation as the API shows it.",
  },
  "conversation.user_replied": {
    logType: "conversation_reply",
    patch: { type: "reply_user" },
    description: "The visitor wrote in a conversation. The new part.",
  },
  "conversation.admin_replied": {
    logType: "conversation_reply",
    patch: { type: "reply_admin" },
    description:
      "An operator replied (a part of type reply_admin, or article for a sent article). The new part.",
  },
  "conversation.note_added": {
    logType: "conversation_reply",
    patch: { type: "note" },
    description: "An operator added an internal note. The new part.",
  },
  "conversation.assigned": {
    logType: "conversation_assigned",
    description: "The conversation's assignee changed (null: unassigned), with the part telling of it.",
  },
  "conversation.closed": {
    logType: "conversation_closed",
    patch: { closed: true },
    description: "The conversation was closed, with the part telling of it.",
  },
  "conversation.reopened": {
    logType: "conversation_closed",
    patch: { closed: false },
    description: "The conversation was reopened; `part` is null when a reply reopened it.",
  },
  "conversation.tag_added": {
    logType: "conversation_tag_added",
    description: "A tag was put on the conversation.",
  },
  "conversation.tag_deleted": {
    logType: "conversation_tag_deleted",
    description: "A tag was taken off the conversation.",
  },
  "conversation.rated": {
    logType: "conversation_rating",
    patch: { rating: 5 },
    description:
      "The visitor rated the conversation (1–5, with an optional comment), in the messenger or by an email's link; " +
      "`admin` is the operator who closed it.",
  },
  "user.props_changed": {
    logType: "user_props_changed",
    description: "A user's properties changed: the new values, null for a deleted property.",
  },
  "user.event": { logType: "event", description: "A user did an event (track, or one recorded by the API)." },
  "user.lead_created": { logType: "lead_created", description: "A new lead: the user, short form." },
  test: {
    logType: TEST_EVENT_TYPE,
    description:
      "Sent by the “send test” action to that one webhook only, paused or not; never subscribable.",
  },
};

export interface WebhookEventDoc extends SchemaDoc {
  kind: WebhookKind;
  logType: LogType;
  description: string;
  subscribable: boolean;
  /** The request body as the dispatcher sends it, with this example as `data`. */
  body: string;
  /** The zod schema the example must parse with. */
  schema: z.ZodType;
}

/** A fixed delivery for the examples: the body is built by the dispatcher's own function. */
const SAMPLE = { id: 1042n, appId: 1n, created: new Date("2024-05-14T10:00:00.000Z") };

export function webhookEvents(): WebhookEventDoc[] {
  const kinds: WebhookKind[] = [...WEBHOOK_KINDS, "test"];
  return kinds.map((kind) => {
    const { logType, patch, description } = WEBHOOK_SOURCES[kind];
    const types: Record<string, z.ZodType> = SOCKET_SCHEMAS[logType];
    const schema = types[logType]!;
    const doc = schemaDoc(schema, patch);
    const body = webhookBody({ ...SAMPLE, type: kind, payload: doc.example });
    return {
      kind,
      logType,
      description,
      subscribable: kind !== "test",
      schema,
      ...doc,
      body: JSON.stringify(JSON.parse(body), null, 2),
    };
  });
}

/** A signature worked out with the dispatcher's own signer, for a reader to check an implementation against. */
export function sampleSignature(): { secret: string; timestamp: number; body: string; header: string } {
  const secret = "whsec_example";
  const timestamp = 1715680800;
  const body = '{"id":"wh_1042","type":"test"}';
  return { secret, timestamp, body, header: signWebhook(secret, timestamp, body) };
}

/** The delivery policy, from the dispatcher's defaults. */
export const DELIVERY = {
  userAgent: USER_AGENT,
  timeoutSeconds: SEND_TIMEOUT_MS / 1000,
  retryBaseSeconds: DEFAULTS.retryBaseMs / 1000,
  retryMaxSeconds: DEFAULTS.retryMaxMs / 1000,
  retryWindowHours: DEFAULTS.retryWindowMs / 3_600_000,
};

/** The nominal wait before each retry (before the ±10% jitter) until the cap, then the cap. */
export function retrySchedule(): { attempt: number; seconds: number }[] {
  const out: { attempt: number; seconds: number }[] = [];
  for (let attempt = 1; ; attempt++) {
    const seconds = Math.min(DELIVERY.retryBaseSeconds * 2 ** (attempt - 1), DELIVERY.retryMaxSeconds);
    out.push({ attempt, seconds });
    if (seconds === DELIVERY.retryMaxSeconds) return out;
  }
}

export const VERIFY_EXAMPLES = [
  {
    id: "node",
    label: "Node.js",
    code: `import crypto from "node:crypto";

// rawBody: the request body exactly as received (a string or Buffer), before any JSON parsing.
export function isFromRelay(rawBody, headers, secret) {
  const timestamp = headers["x-webhook-timestamp"];
  const signature = String(headers["x-webhook-signature"] ?? "");
  const expected =
    "sha256=" + crypto.createHmac("sha256", secret).update(\`\${timestamp}.\${rawBody}\`).digest("hex");
  // Optional: refuse old messages (each attempt is signed with a new timestamp).
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  return (
    signature.length === expected.length &&
    crypto.timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
  );
}`,
  },
  {
    id: "python",
    label: "Python",
    code: `import hashlib, hmac, time

def is_from_relay(raw_body: bytes, headers, secret: str) -> bool:
    timestamp = headers.get("X-Webhook-Timestamp", "")
    signature = headers.get("X-Webhook-Signature", "")
    signed = timestamp.encode() + b"." + raw_body
    expected = "sha256=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    # Optional: refuse old messages (each attempt is signed with a new timestamp).
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > 300:
        return False
    return hmac.compare_digest(signature, expected)`,
  },
  {
    id: "php",
    label: "PHP",
    code: `<?php
function is_from_relay(string $rawBody, string $secret): bool {
    $timestamp = $_SERVER['HTTP_X_WEBHOOK_TIMESTAMP'] ?? '';
    $signature = $_SERVER['HTTP_X_WEBHOOK_SIGNATURE'] ?? '';
    $expected = 'sha256=' . hash_hmac('sha256', $timestamp . '.' . $rawBody, $secret);
    // Optional: refuse old messages (each attempt is signed with a new timestamp).
    if (!ctype_digit($timestamp) || abs(time() - (int) $timestamp) > 300) {
        return false;
    }
    return hash_equals($expected, $signature);
}

$rawBody = file_get_contents('php://input');`,
  },
] as const;
