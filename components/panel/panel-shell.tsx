"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { LogoMark } from "@/components/ui/logo";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/components/ui/cn";
import type { Me } from "@/lib/client/api";
import { CurrentAppProvider } from "@/lib/client/current-app";
import { useCurrentApp } from "@/lib/client/use-current-app";
import { useLogout } from "@/lib/client/use-logout";
import { useMe } from "@/lib/client/use-me";
import { useSocket } from "@/lib/client/use-socket";
import { Avatar } from "./avatar";
import { AvailabilityToggle } from "./availability-toggle";
import { ConnectionIndicator } from "./connection-indicator";
import { NotificationBell } from "./notification-bell";
import {
  BotsIcon,
  InboxIcon,
  LeadsIcon,
  LogoutIcon,
  MessagesIcon,
  ReportsIcon,
  SettingsIcon,
} from "./nav-icons";
import { SearchBox } from "./search-box";

const NAV = [
  { href: "/inbox", label: "Inbox", icon: InboxIcon },
  { href: "/leads", label: "Leads", icon: LeadsIcon },
  { href: "/messages", label: "Messages", icon: MessagesIcon },
  { href: "/bots", label: "Bots", icon: BotsIcon },
  { href: "/reports", label: "Reports", icon: ReportsIcon },
  { href: "/settings", label: "Settings", icon: SettingsIcon },
] as const;

function FullPage({ children }: { children: ReactNode }) {
  return <div className="flex min-h-dvh items-center justify-center bg-slate-50 p-6">{children}</div>;
}

/** The operator's panel: signs out visitors to the login page, then the navigation around the page. */
export function PanelShell({ children }: { children: ReactNode }) {
  const me = useMe();
  const router = useRouter();
  const pathname = usePathname();
  const logout = useLogout();
  const leaving = logout.isPending || logout.isSuccess;
  const loggedOut = me.data === null;

  useEffect(() => {
    if (!loggedOut || leaving) return;
    const here = `${window.location.pathname}${window.location.search}`;
    router.replace(`/login?next=${encodeURIComponent(here)}`);
  }, [loggedOut, leaving, router]);

  const socket = useSocket({ enabled: !!me.data });

  if (me.data) {
    return (
      <CurrentAppProvider apps={me.data.apps}>
        <div className="min-h-dvh md:flex">
          <Sidebar
            me={me.data}
            pathname={pathname}
            status={socket.status}
            onLogout={() => logout.mutate()}
            loggingOut={logout.isPending}
            logoutError={logout.error ? "Could not log out. Try again." : null}
          />
          <main id="main" className="min-w-0 flex-1">
            {children}
          </main>
        </div>
      </CurrentAppProvider>
    );
  }

  if (me.isError) {
    return (
      <FullPage>
        <div role="alert" className="max-w-sm text-center">
          <h1 className="text-base font-semibold text-slate-900">Can’t load your workspace</h1>
          <p className="mt-1 text-sm text-slate-600">{me.error.message}</p>
          <Button
            className="mt-4"
            variant="secondary"
            onClick={() => void me.refetch()}
            loading={me.isFetching}
          >
            Try again
          </Button>
        </div>
      </FullPage>
    );
  }

  return (
    <FullPage>
      <Spinner className="size-6 text-slate-400" label="Loading" />
    </FullPage>
  );
}

interface SidebarProps {
  me: Me;
  pathname: string;
  status: ReturnType<typeof useSocket>["status"];
  onLogout: () => void;
  loggingOut: boolean;
  logoutError: string | null;
}

function Sidebar({ me, pathname, status, onLogout, loggingOut, logoutError }: SidebarProps) {
  return (
    <aside
      className={cn(
        "sticky top-0 z-10 flex flex-wrap items-center border-b border-slate-200 bg-white",
        "md:h-dvh md:w-64 md:shrink-0 md:flex-col md:flex-nowrap md:items-stretch md:border-r md:border-b-0",
      )}
    >
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-20 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow"
      >
        Skip to content
      </a>
      <div className="order-1 flex min-w-0 flex-1 items-center gap-3 px-4 py-3 md:flex-none md:px-5 md:py-5">
        <LogoMark />
        <AppName />
      </div>

      <div className="order-2 flex items-center gap-3 px-4 py-2 md:order-3 md:mt-auto md:block md:space-y-3 md:border-t md:border-slate-200 md:p-4">
        <div className="flex min-w-0 items-center gap-3">
          <Avatar name={me.admin.name} src={me.admin.avatar || undefined} />
          <div className="hidden min-w-0 flex-1 md:block">
            <p
              className="truncate text-sm font-medium text-slate-900"
              data-testid="admin-name"
              title={me.admin.name}
            >
              {me.admin.name}
            </p>
            <p className="truncate text-xs text-slate-500" title={me.admin.email}>
              {me.admin.email}
            </p>
          </div>
          <MyAvailability adminId={String(me.admin.id)} />
        </div>
        <div className="flex items-center gap-3 md:justify-between">
          <ConnectionIndicator status={status} className="md:pl-1" />
          <NotificationBell me={me} />
          <Button
            variant="ghost"
            size="sm"
            onClick={onLogout}
            loading={loggingOut}
            title={`Log out ${me.admin.email}`}
            className="-mr-1"
          >
            {!loggingOut && <LogoutIcon />}
            Log out
          </Button>
        </div>
        {logoutError && (
          <p role="alert" className="text-xs text-red-700">
            {logoutError}
          </p>
        )}
      </div>

      <div role="search" className="order-3 w-full px-4 pb-2 md:order-2 md:px-3 md:pb-3">
        <SearchBox />
      </div>

      <nav aria-label="Main" className="order-3 w-full overflow-x-auto px-2 pb-2 md:order-2 md:px-3 md:pb-0">
        <ul className="flex gap-1 md:flex-col">
          {NAV.map(({ href, label, icon: Icon }) => {
            const current = pathname === href || pathname.startsWith(`${href}/`);
            return (
              <li key={href}>
                <Link
                  prefetch={false}
                  href={href}
                  aria-current={current ? "page" : undefined}
                  className={cn(
                    "flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors",
                    "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
                    current
                      ? "bg-brand-50 text-brand-700"
                      : "text-slate-600 hover:bg-slate-100 hover:text-slate-900",
                  )}
                >
                  <Icon />
                  {label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
    </aside>
  );
}

function MyAvailability({ adminId }: { adminId: string }) {
  const { app } = useCurrentApp();
  return app ? <AvailabilityToggle key={String(app.id)} appId={String(app.id)} adminId={adminId} /> : null;
}

function AppName() {
  const { app, apps, setAppId } = useCurrentApp();
  if (apps.length > 1 && app) {
    return (
      <div className="min-w-0 flex-1">
        <label htmlFor="current-app" className="sr-only">
          App
        </label>
        <select
          id="current-app"
          value={String(app.id)}
          onChange={(e) => setAppId(e.target.value)}
          className="w-full truncate rounded-md border-0 bg-transparent py-1 pr-7 pl-1 text-sm font-semibold text-slate-900 ring-1 ring-transparent hover:ring-slate-200 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none"
        >
          {apps.map((a) => (
            <option key={String(a.id)} value={String(a.id)}>
              {a.name}
            </option>
          ))}
        </select>
      </div>
    );
  }
  return (
    <div className="min-w-0">
      <p className="truncate text-sm font-semibold text-slate-900" data-testid="app-name">
        {app?.name ?? "No app yet"}
      </p>
      <p className="truncate text-xs text-slate-500">Relay</p>
    </div>
  );
}
