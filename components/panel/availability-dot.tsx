"use client";

import { cn } from "@/components/ui/cn";
import type { AdminAvailability, Availability } from "@/lib/admins/schemas";

/** An operator's availability as a dot with its word for screen readers (and a title for the pointer). */
export function AvailabilityDot({
  status,
  adminId,
  className,
}: {
  status: Availability | undefined;
  adminId?: string;
  className?: string;
}) {
  if (!status) return null;
  const label = status === "available" ? "Available" : "Away";
  return (
    <span
      data-testid="availability-dot"
      data-admin-id={adminId}
      data-state={status}
      title={label}
      className={cn("inline-flex items-center", className)}
    >
      <span
        aria-hidden
        className={cn(
          "size-2 rounded-full",
          status === "available" ? "bg-emerald-500" : "bg-slate-300 ring-1 ring-slate-400",
        )}
      />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** One operator's status out of the app's list (undefined while it loads). */
export function statusOf(list: AdminAvailability[] | undefined, adminId: string): Availability | undefined {
  return list?.find((x) => String(x.admin_id) === adminId)?.availability;
}
