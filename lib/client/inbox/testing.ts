import type { ConversationPages } from "./list-cache";
import type { Conversation } from "./types";

/** The Inbox's client tests: a conversation as the API shows it (an open visitor conversation unless told). */
let nextId = 1000;
export function conv(over: Partial<Conversation> = {}): Conversation {
  return {
    id: nextId++,
    created: 1,
    user: null,
    read: true,
    replied: false,
    clicked: false,
    unsubscribed: false,
    closed: false,
    message: null,
    type: "",
    reply_type: "text",
    part_last: null,
    important_part_last: null,
    reply_last: null,
    parts_count: 1,
    assignee: null,
    unread_parts_count: 0,
    last_admin: null,
    last_update: 100,
    tags: [],
    delayed_until: null,
    assistant_type: null,
    ...over,
  };
}

export const pages = (
  ...ps: { items: Conversation[]; next: (number | string)[] | null }[]
): ConversationPages => ({
  pages: ps,
  pageParams: ps.map(() => null),
});
