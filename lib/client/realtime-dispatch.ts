import type { QueryClient } from "@tanstack/react-query";
import { inboxRealtimeHandlers, onInboxUserPresence } from "./inbox/realtime";
import { onUserPresenceChanged, onUserPropsChanged } from "./leads-realtime";
import { onNotification } from "./notifications/realtime";
import { onAdminAvailability } from "./availability-realtime";
import { onBulkJob } from "./inbox/bulk-realtime";

/** One message from the socket (the server's `socket.send`): `message` is the API object. */
export interface RealtimeMessage<T = unknown> {
  id: number | string;
  channel: string;
  message: T;
  time: number | string;
}

export interface RealtimeContext {
  queryClient: QueryClient;
}

export type RealtimeHandler = (msg: RealtimeMessage, ctx: RealtimeContext) => void;

/**
 * Where every socket message lands. Keyed by the channel's kind (`conversation_reply.<app>` → `conversation_reply`);
 * features add their handler here, and it patches the React Query cache (setQueryData / invalidateQueries).
 */
const handlers: Partial<Record<string, RealtimeHandler>> = {
  ...inboxRealtimeHandlers,
  // The Inbox's lists, and the user cache that the Leads card and the Inbox's sidebar share.
  user_presence_changed: (msg, ctx) => {
    onInboxUserPresence(msg, ctx);
    onUserPresenceChanged(msg, ctx);
  },
  user_props_changed: onUserPropsChanged,
  notification: onNotification,
  admin_availability: onAdminAvailability,
  bulk_job: onBulkJob,
};

export function channelKind(channel: string): string {
  const dot = channel.indexOf(".");
  return dot < 0 ? channel : channel.slice(0, dot);
}

export function dispatchRealtimeMessage(msg: RealtimeMessage, ctx: RealtimeContext): void {
  const handler = handlers[channelKind(msg.channel)];
  if (!handler) return;
  try {
    handler(msg, ctx);
  } catch (err) {
    // One bad message must not take the connection down.
    console.error("realtime handler failed", msg.channel, err);
  }
}
