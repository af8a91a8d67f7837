import type { QueryClient } from "@tanstack/react-query";
import type { SocketEnvelope } from "../contract/socket";
import { readSocketMessage, type SocketMessage } from "../realtime/contract";
import { applyConversation, applyPart, onConversationTyping, onInboxUserPresence } from "./inbox/realtime";
import { onUserPresenceChanged, onUserPropsChanged } from "./leads-realtime";
import { onNotification } from "./notifications/realtime";
import { patchAvailability } from "./availability-realtime";
import { onBulkEnd, onBulkJob } from "./inbox/bulk-realtime";
import { onConversationRating } from "./csat-realtime";

export interface RealtimeContext {
  queryClient: QueryClient;
}

/**
 * Where every socket message lands, once checked against the socket contract (lib/realtime/contract.ts): one that
 * does not match it is left out with a warning, never applied. Each kind's handler patches the React Query cache
 * (setQueryData / invalidateQueries); features add theirs here.
 */
export function dispatchRealtimeMessage(envelope: SocketEnvelope, ctx: RealtimeContext): void {
  const read = readSocketMessage(envelope);
  if ("problem" in read) {
    console.warn("realtime: a message the contract does not know was ignored:", read.problem);
    return;
  }
  try {
    handle(read.msg, ctx);
  } catch (err) {
    // One bad message must not take the connection down.
    console.error("realtime handler failed", envelope.channel, err);
  }
}

function handle(msg: SocketMessage, ctx: RealtimeContext): void {
  const qc = ctx.queryClient;
  switch (msg.kind) {
    case "conversation":
    case "conversation_started_user":
      return applyConversation(qc, msg.app, msg.message, msg.id);
    case "conversation_reply":
      return applyPart(qc, msg.message);
    case "conversation_typing":
      return onConversationTyping(qc, msg.message);
    case "conversation_bulk":
      return onBulkEnd(msg, ctx);
    case "user_presence_changed":
      // The Inbox's lists, and the user cache that the Leads card and the Inbox's sidebar share.
      onInboxUserPresence(qc, msg.app, msg.message);
      return onUserPresenceChanged(qc, msg.message);
    case "user_props_changed":
      return onUserPropsChanged(qc, msg.message);
    case "notification":
      return onNotification(msg, ctx);
    case "admin_availability":
      return patchAvailability(qc, msg.app, msg.message);
    case "bulk_job":
      return onBulkJob(msg, ctx);
    case "conversation_rating":
      return onConversationRating(qc, msg.app, msg.message);
    default:
      // Kinds the panel does not subscribe to.
      return;
  }
}
