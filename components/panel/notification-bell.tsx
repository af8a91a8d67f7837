"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId } from "react";
import { usePopover } from "@/components/ui/use-popover";
import { cn } from "@/components/ui/cn";
import { UserText } from "@/components/ui/user-text";
import type { Me } from "@/lib/client/api";
import { useCurrentApp } from "@/lib/client/use-current-app";
import { useSocket } from "@/lib/client/use-socket";
import { useNotifications } from "@/lib/client/notifications/use-notifications";
import { useMarkNotificationsRead } from "@/lib/client/notifications/use-mark-notifications-read";
import {
  describeNotification,
  notificationChannels,
  notificationHref,
} from "@/lib/client/notifications/realtime";
import type { Notification } from "@/lib/notifications/schemas";

/** The bell: unread count live over the operator's own channels; opening one goes to its conversation, read. */
export function NotificationBell({ me }: { me: Me }) {
  const { open, setOpen, root, button, onKeyDown } = usePopover();
  const list = useNotifications();
  const markRead = useMarkNotificationsRead();
  const { subscribe } = useSocket();
  const { setAppId } = useCurrentApp();
  const router = useRouter();
  const panelId = useId();
  const adminId = String(me.admin.id);
  const appKey = me.apps.map((a) => String(a.id)).join(",");

  useEffect(() => subscribe(notificationChannels(adminId, appKey.split(","))), [subscribe, adminId, appKey]);

  const unread = list.data?.unread ?? 0;
  const items = list.data?.items ?? [];

  const choose = (n: Notification) => {
    if (n.read_at === null) markRead.mutate([String(n.id)]);
    setOpen(false);
    setAppId(String(n.app));
    router.push(notificationHref(n));
  };

  return (
    <div ref={root} className="relative" onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={unread ? `Notifications, ${unread} unread` : "Notifications"}
        data-testid="notification-bell"
        onClick={() => setOpen((o) => !o)}
        className="relative rounded-md p-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <svg
          aria-hidden
          viewBox="0 0 20 20"
          className="size-5"
          fill="none"
          stroke="currentColor"
          strokeWidth={1.6}
        >
          <path d="M10 2.5a5 5 0 0 0-5 5v3l-1.5 3h13L15 10.5v-3a5 5 0 0 0-5-5ZM8 16a2 2 0 0 0 4 0" />
        </svg>
        {unread > 0 && (
          <span
            data-testid="notification-count"
            className="absolute -top-1 -right-1 min-w-4 rounded-full bg-red-600 px-1 text-center text-[11px] leading-4 font-semibold text-white"
          >
            {unread > 99 ? "99+" : unread}
          </span>
        )}
      </button>
      {open && (
        <div
          id={panelId}
          role="region"
          aria-label="Notifications"
          className="absolute top-full left-0 z-30 mt-2 w-80 rounded-lg bg-white shadow-lg ring-1 ring-slate-200 md:bottom-full md:top-auto md:mb-2"
        >
          <div className="flex items-center justify-between border-b border-slate-100 px-3 py-2">
            <p className="text-sm font-semibold text-slate-900">Notifications</p>
            <button
              type="button"
              disabled={unread === 0}
              onClick={() => markRead.mutate("all")}
              className="text-xs font-medium text-brand-700 hover:underline disabled:text-slate-400 disabled:no-underline"
            >
              Mark all read
            </button>
          </div>
          {list.isError ? (
            <p role="alert" className="px-3 py-3 text-sm text-red-700">
              Can’t load notifications: {list.error.message}
            </p>
          ) : markRead.isError ? (
            <p role="alert" className="px-3 py-3 text-sm text-red-700">
              Could not mark read: {markRead.error.message}
            </p>
          ) : null}
          {items.length === 0 ? (
            <p className="px-3 py-3 text-sm text-slate-600">{list.isPending ? "Loading…" : "Nothing yet."}</p>
          ) : (
            <ul className="max-h-96 divide-y divide-slate-100 overflow-y-auto" aria-label="Notifications">
              {items.map((n) => (
                <li key={String(n.id)}>
                  <button
                    type="button"
                    data-testid="notification-item"
                    data-unread={n.read_at === null}
                    onClick={() => choose(n)}
                    className={cn(
                      "block w-full px-3 py-2 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600",
                      n.read_at === null ? "bg-brand-50/60" : "",
                    )}
                  >
                    <span className="flex items-center gap-2 font-medium text-slate-900">
                      {n.read_at === null && (
                        <span aria-hidden className="size-2 rounded-full bg-brand-600" />
                      )}
                      <UserText>{describeNotification(n)}</UserText>
                      {n.read_at === null && <span className="sr-only">(unread)</span>}
                    </span>
                    {n.excerpt && (
                      <span className="mt-0.5 block truncate text-xs text-slate-600">{n.excerpt}</span>
                    )}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
