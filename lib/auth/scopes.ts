/**
 * What an API key may do. No server imports: the panel's Settings shows these names and lines as they are.
 * Operator sessions are not scoped; every endpoint that takes a token names the scopes it needs.
 */
export const SCOPES = [
  "conversations-read",
  "conversations-write",
  "user-read",
  "user-write",
  "users-list",
  "as-user",
  "app-admin",
  "messages",
  "bots",
] as const;
export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "conversations-read": "Read conversations, their parts, channels and Inbox counts",
  "conversations-write": "Reply, add notes, assign, close, snooze, tag, start and send conversations",
  "user-read": "Read a user: props, events, notes and their conversations",
  "user-write": "Change a user: props, tags, notes, events, presence, subscriptions",
  "users-list": "List and filter users and leads, active users, segments and the props catalog",
  "as-user": "Act as the visitor: send, type, click quick replies and mark read as the user",
  "app-admin": "Administer the app: webhooks and their secrets, operators, CSV import and export",
  messages: "Read and change proactive messages, and read their statistics",
  bots: "Read and change bots, and read their figures",
};

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}
