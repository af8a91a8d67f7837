/** What a subscription can ask for. `test` is not subscribable: only the "send test" action makes it. */
export const WEBHOOK_KINDS = [
  "conversation.started",
  "conversation.user_replied",
  "conversation.admin_replied",
  "conversation.note_added",
  "conversation.assigned",
  "conversation.closed",
  "conversation.reopened",
  "conversation.tag_added",
  "conversation.tag_deleted",
  "conversation.rated",
  "user.props_changed",
  "user.event",
  "user.lead_created",
] as const;

export type SubscribableKind = (typeof WEBHOOK_KINDS)[number];
export type WebhookKind = SubscribableKind | "test";

/** The event-log `type` of a "send test" action; its payload names the one subscription it is for. */
export const TEST_EVENT_TYPE = "webhook_test";

const BY_TYPE: Record<string, SubscribableKind> = {
  conversation_started_user: "conversation.started",
  conversation_assigned: "conversation.assigned",
  conversation_tag_added: "conversation.tag_added",
  conversation_tag_deleted: "conversation.tag_deleted",
  user_props_changed: "user.props_changed",
  event: "user.event",
  lead_created: "user.lead_created",
};

// Parts of every kind go to conversation_reply; system parts (assigned, closed, tags…) have their own channels.
const BY_PART_TYPE: Record<string, SubscribableKind> = {
  reply_user: "conversation.user_replied",
  reply_admin: "conversation.admin_replied",
  article: "conversation.admin_replied",
  note: "conversation.note_added",
};

const field = (payload: unknown, key: string): unknown =>
  payload !== null && typeof payload === "object" ? (payload as Record<string, unknown>)[key] : undefined;

/**
 * The webhook kind of one event-log row, or null when webhooks do not carry it. The domains name the row's `type`
 * after its channel's kind (`conversation_reply` for `conversation_reply.<app>`); the channel is the fallback.
 */
export function webhookKind(type: string, channel: string | undefined, payload: unknown): WebhookKind | null {
  const t = type || (channel?.split(".")[0] ?? "");
  if (t === TEST_EVENT_TYPE) return "test";
  if (t === "conversation_reply") {
    const part = field(payload, "type");
    return typeof part === "string" ? (BY_PART_TYPE[part] ?? null) : null;
  }
  if (t === "conversation_closed") {
    const closed = field(payload, "closed");
    return closed === true ? "conversation.closed" : closed === false ? "conversation.reopened" : null;
  }
  // An ask (rating null) is the panel's and the messenger's only; a rating given is the webhook.
  if (t === "conversation_rating") return field(payload, "rating") == null ? null : "conversation.rated";
  return BY_TYPE[t] ?? null;
}

export function isSubscribable(kind: string): kind is SubscribableKind {
  return (WEBHOOK_KINDS as readonly string[]).includes(kind);
}
