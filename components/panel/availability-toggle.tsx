"use client";

import { cn } from "@/components/ui/cn";
import { useActivityPing } from "@/lib/client/use-activity-ping";
import { useAvailability } from "@/lib/client/use-availability";
import { useSetAvailability } from "@/lib/client/use-set-availability";
import { statusOf } from "./availability-dot";

/** The operator's own Available / Away switch for the current app; also sends the panel's activity pings. */
export function AvailabilityToggle({ appId, adminId }: { appId: string; adminId: string }) {
  useActivityPing(appId);
  const list = useAvailability(appId);
  const set = useSetAvailability(appId, adminId);
  const status = statusOf(list.data, adminId);
  if (!status) return null;
  const available = status === "available";
  return (
    <div className="flex flex-col">
      <button
        type="button"
        role="switch"
        aria-checked={available}
        data-testid="availability-toggle"
        data-state={status}
        title={
          available
            ? "You get new conversations. Click to set yourself Away."
            : "Click to set yourself Available."
        }
        onClick={() => set.mutate(available ? "away" : "available")}
        className={cn(
          "inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset",
          "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
          available
            ? "bg-emerald-50 text-emerald-700 ring-emerald-200"
            : "bg-slate-100 text-slate-600 ring-slate-300",
        )}
      >
        <span
          aria-hidden
          className={cn("size-2 rounded-full", available ? "bg-emerald-500" : "bg-slate-400")}
        />
        {available ? "Available" : "Away"}
      </button>
      {set.isError && (
        <p role="alert" className="text-xs text-red-700">
          Could not change your status.
        </p>
      )}
    </div>
  );
}
