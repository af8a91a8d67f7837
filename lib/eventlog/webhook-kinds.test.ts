import { describe, expect, it } from "vitest";
import { isSubscribable, webhookKind } from "./webhook-kinds";

describe("webhookKind", () => {
  it("maps conversation parts by their type", () => {
    const part = (type: string) => webhookKind("conversation_reply", "conversation_reply.1", { type });
    expect(part("reply_user")).toBe("conversation.user_replied");
    expect(part("reply_admin")).toBe("conversation.admin_replied");
    expect(part("article")).toBe("conversation.admin_replied");
    expect(part("note")).toBe("conversation.note_added");
    // System parts have channels of their own; their conversation_reply copy is not a second webhook.
    expect(part("assigned")).toBeNull();
    expect(part("closed")).toBeNull();
    expect(webhookKind("conversation_reply", undefined, null)).toBeNull();
  });

  it("tells closing from reopening", () => {
    expect(webhookKind("conversation_closed", undefined, { closed: true })).toBe("conversation.closed");
    expect(webhookKind("conversation_closed", undefined, { closed: false })).toBe("conversation.reopened");
    expect(webhookKind("conversation_closed", undefined, {})).toBeNull();
  });

  it("maps the other domains' types, and falls back on the channel", () => {
    expect(webhookKind("conversation_started_user", undefined, {})).toBe("conversation.started");
    expect(webhookKind("conversation_assigned", undefined, {})).toBe("conversation.assigned");
    expect(webhookKind("conversation_tag_added", undefined, {})).toBe("conversation.tag_added");
    expect(webhookKind("conversation_tag_deleted", undefined, {})).toBe("conversation.tag_deleted");
    expect(webhookKind("user_props_changed", undefined, {})).toBe("user.props_changed");
    expect(webhookKind("event", undefined, {})).toBe("user.event");
    expect(webhookKind("lead_created", undefined, {})).toBe("user.lead_created");
    expect(webhookKind("webhook_test", undefined, {})).toBe("test");
    expect(webhookKind("", "event.1.2", {})).toBe("user.event");
  });

  it("ignores what webhooks do not carry", () => {
    for (const t of [
      "conversation",
      "conversation_read",
      "conversation_typing",
      "user_presence_changed",
      "x",
    ])
      expect(webhookKind(t, undefined, {})).toBeNull();
    expect(isSubscribable("test")).toBe(false);
    expect(isSubscribable("user.event")).toBe(true);
  });
});
