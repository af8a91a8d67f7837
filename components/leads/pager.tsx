"use client";

import { Button } from "@/components/ui/button";
import { formatCount } from "@/lib/client/format";
import { lastReachablePage, MAX_REACHABLE } from "@/lib/client/lead-filters";
import { controlClass } from "./condition-row";

export function Pager({
  total,
  page,
  size,
  shown,
  onPage,
  onSize,
}: {
  total: number;
  page: number;
  size: 20 | 50;
  shown: number;
  onPage: (p: number) => void;
  onSize: (s: 20 | 50) => void;
}) {
  const last = lastReachablePage(total, size);
  const from = (page - 1) * size + 1;
  const to = (page - 1) * size + shown;
  return (
    <div className="space-y-2">
      <nav aria-label="Pages of leads" className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
        <p aria-live="polite" data-testid="leads-range">
          {total > 0 && `${formatCount(from)}–${formatCount(to)} of `}
          <span data-testid="leads-total">{formatCount(total)}</span> {total === 1 ? "lead" : "leads"}
        </p>
        <span className="ml-auto flex items-center gap-2">
          <label className="inline-flex items-center gap-1.5">
            Per page
            <select
              className={controlClass}
              value={size}
              onChange={(e) => onSize(e.target.value === "50" ? 50 : 20)}
            >
              <option value="20">20</option>
              <option value="50">50</option>
            </select>
          </label>
          <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            Previous page
          </Button>
          <span>
            Page {page} of {last}
          </span>
          <Button size="sm" variant="secondary" disabled={page >= last} onClick={() => onPage(page + 1)}>
            Next page
          </Button>
        </span>
      </nav>
      {total > MAX_REACHABLE && (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900" role="note">
          {formatCount(total)} leads match, but only the first {formatCount(MAX_REACHABLE)} can be paged
          through. Narrow the filter or change the sort to reach the others, or export them to CSV.
        </p>
      )}
    </div>
  );
}
