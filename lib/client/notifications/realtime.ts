import type { QueryClient } from "@tanstack/react-query";
import type { Notification } from "@/lib/notifications/schemas";
import { operatorChannel } from "@/lib/contract/socket";
import { queryKeys } from "../query-keys";
import { addNotification, type NotificationsData } from "./cache";

/** `notification.<app>.<admin>`: this operator's own channel, one per app they belong to. */
export const notificationChannels = (adminId: string, appIds: readonly string[]) =>
  appIds.map((app) => operatorChannel("notification", app, adminId));

export function describeNotification(n: Notification): string {
  const who = n.actor?.name ?? "The visitor";
  if (n.kind === "mention") return `${who} mentioned you`;
  // A bulk job's one notification for all it assigned to this operator (lib/notifications/bulk.ts).
  if (n.kind === "assigned" && n.bulk_job !== null)
    return n.count === 1
      ? `1 conversation was assigned to you${n.actor ? ` by ${n.actor.name}` : ""}`
      : `${n.count} conversations were assigned to you${n.actor ? ` by ${n.actor.name}` : ""}`;
  // No actor on an assignment: routing made it (lib/conversations/routing.ts).
  if (n.kind === "assigned")
    return n.actor ? `${who} assigned you a conversation` : "A new conversation was routed to you";
  return "New reply in your conversation";
}

/** Where opening a notification goes: its conversation, or for a bulk job's the operator's own list. */
export function notificationHref(n: Notification): string {
  if (n.bulk_job !== null && n.count > 1) return "/inbox?assignee=mine";
  return `/inbox?c=${encodeURIComponent(String(n.conversation))}`;
}

/** Called by ../realtime-dispatch.ts: into the bell's cache, and to the desktop when the tab is hidden. */
export function onNotification(msg: { message: Notification }, ctx: { queryClient: QueryClient }): void {
  const n = msg.message;
  const key = queryKeys.notifications.list();
  const old = ctx.queryClient.getQueryData<NotificationsData>(key);
  if (!old) {
    // Not read yet: the count must come from the server.
    void ctx.queryClient.invalidateQueries({ queryKey: key });
  } else {
    const next = addNotification(old, n);
    // A replayed message is already in the list: no second desktop notification.
    if (next === old) return;
    ctx.queryClient.setQueryData(key, next);
  }
  showDesktop(n);
}

/** Only once the operator allowed notifications (the Inbox's alerts switch asks), and only for a hidden tab. */
function showDesktop(n: Notification): void {
  if (typeof document === "undefined" || !document.hidden) return;
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  try {
    const shown = new Notification(describeNotification(n), { body: n.excerpt, tag: `notification-${n.id}` });
    shown.onclick = () => {
      window.focus();
      window.location.assign(notificationHref(n));
    };
  } catch {
    // Some browsers allow notifications only from a service worker; the bell still counts.
  }
}
