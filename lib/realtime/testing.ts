import { eventOf, type EventOf, type EventPayload } from "../contract/socket";

/**
 * Log rows of the contract's shapes for tests that need rows rather than the changes that write them (webhook
 * deliveries, retention, replays): the writers accept nothing else.
 */

/** A part on `conversation_reply.<app>`; `fields` override the defaults (a visitor's reply). */
export function partEvent(
  appId: bigint,
  fields: Partial<EventPayload<"conversation_reply">> = {},
): EventOf<"conversation_reply"> {
  return eventOf(
    "conversation_reply",
    { appId },
    {
      id: 1,
      created: 0,
      conversation: 1,
      body: "hi",
      read: false,
      direction: "u2a",
      type: "reply_user",
      sent_via: "api",
      reply_type: "text",
      edited: null,
      removed: null,
      external_id: null,
      part_group: 1,
      from: 1,
      random_id: 0,
      referrer: null,
      ...fields,
    },
  );
}

/** A user's tracked event on `event.<app>`, its props as given. */
export function userEvent(appId: bigint, props: Record<string, unknown> = {}): EventOf<"event"> {
  const type = { id: 1, name: "test", score: 0, visible: true };
  return eventOf("event", { appId }, { id: 1, created: 0, type, user: 1, props });
}
