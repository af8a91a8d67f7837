import type { Notification } from "@/lib/notifications/schemas";

/** The bell's cache: the newest notifications and the count of all unread ones (the list's `meta.unread`). */
export interface NotificationsData {
  items: Notification[];
  unread: number;
}

export const LIST_LIMIT = 30;

/** A notification from the socket: first in the list, counted unread; a repeat (replay) changes nothing. */
export function addNotification(
  old: NotificationsData | undefined,
  n: Notification,
): NotificationsData | undefined {
  if (!old || old.items.some((x) => String(x.id) === String(n.id))) return old;
  return {
    items: [n, ...old.items].slice(0, LIST_LIMIT),
    unread: old.unread + (n.read_at === null ? 1 : 0),
  };
}

/** Marks `ids` (or all) read in place, as the server is about to. */
export function markRead(
  old: NotificationsData | undefined,
  ids: readonly string[] | "all",
  now: number,
): NotificationsData | undefined {
  if (!old) return old;
  let changed = 0;
  const items = old.items.map((n) => {
    if (n.read_at !== null || (ids !== "all" && !ids.includes(String(n.id)))) return n;
    changed++;
    return { ...n, read_at: now };
  });
  return { items, unread: ids === "all" ? 0 : Math.max(0, old.unread - changed) };
}
