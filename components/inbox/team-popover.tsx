"use client";

import { useId } from "react";
import { Button } from "@/components/ui/button";
import { usePopover } from "@/components/ui/use-popover";
import { cn } from "@/components/ui/cn";
import { UserText } from "@/components/ui/user-text";
import { statusOf } from "@/components/panel/availability-dot";
import type { AdminMember } from "@/lib/client/settings-types";
import { useAvailability } from "@/lib/client/use-availability";
import { useCurrentApp } from "@/lib/client/use-current-app";

/**
 * Who of the team is Available or Away, from the Inbox's list header: the app's operators with their status, kept
 * live by `admin_availability.<app>` (useAvailability patches its cache from the socket). The button says how many
 * are Available, so the common question needs no click. Escape or a click outside closes it.
 */
export function TeamPopover({ admins, meId }: { admins: AdminMember[]; meId: string }) {
  const id = useId();
  const { open, setOpen, root, button, onKeyDown } = usePopover();
  const availability = useAvailability(String(useCurrentApp().app?.id ?? ""));
  const team = admins
    .map((a) => ({ a, status: statusOf(availability.data, String(a.id)) }))
    // Available first, then by name: who can take a conversation now is what is asked.
    .sort(
      (x, y) =>
        Number(y.status === "available") - Number(x.status === "available") ||
        x.a.name.localeCompare(y.a.name),
    );
  const available = team.filter((t) => t.status === "available").length;
  const known = availability.data !== undefined;

  return (
    <div ref={root} className="relative" onKeyDown={onKeyDown}>
      <Button
        ref={button}
        size="sm"
        variant="ghost"
        aria-expanded={open}
        aria-controls={`${id}-team`}
        aria-label={known ? `Team: ${available} of ${team.length} available` : "Team"}
        data-testid="team-button"
        onClick={() => setOpen((o) => !o)}
      >
        Team
        {known && (
          <span aria-hidden className="flex items-center gap-1 text-xs text-slate-600">
            <span className="size-2 rounded-full bg-emerald-500" />
            {available}
          </span>
        )}
      </Button>
      <div
        id={`${id}-team`}
        role="group"
        aria-label="Team availability"
        className={cn(
          "absolute top-full right-0 z-20 mt-1 w-64 rounded-lg bg-white py-1 shadow-lg ring-1 ring-slate-200",
          !open && "hidden",
        )}
        data-testid="team-popover"
      >
        {availability.isError ? (
          <p role="alert" className="px-3 py-2 text-sm text-red-700">
            Can’t load the team’s status: {availability.error.message}
          </p>
        ) : !known ? (
          <p className="px-3 py-2 text-sm text-slate-600">Loading…</p>
        ) : (
          <ul className="max-h-72 overflow-y-auto" aria-label="Operators">
            {team.map(({ a, status }) => (
              <li
                key={String(a.id)}
                data-testid="team-member"
                data-admin-id={String(a.id)}
                data-state={status ?? "unknown"}
                className="flex items-center gap-2 px-3 py-1.5 text-sm"
              >
                <span
                  aria-hidden
                  className={cn(
                    "size-2 shrink-0 rounded-full",
                    status === "available" ? "bg-emerald-500" : "bg-slate-300 ring-1 ring-slate-400",
                  )}
                />
                <span className="min-w-0 flex-1 truncate text-slate-900">
                  <UserText>{a.name}</UserText>
                  {String(a.id) === meId && <span className="text-slate-500"> (you)</span>}
                </span>
                <span
                  className={cn("text-xs", status === "available" ? "text-emerald-700" : "text-slate-500")}
                >
                  {status === "available" ? "Available" : status === "away" ? "Away" : "—"}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
