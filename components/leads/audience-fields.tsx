"use client";

import { FilterBuilder } from "@/components/leads/filter-builder";
import { ErrorAlert } from "@/components/ui/error-alert";
import { formatCount } from "@/lib/client/format";
import { cleanFilter, countConditions } from "@/lib/client/lead-filters";
import { useAudienceSize, type AudienceSize } from "@/lib/client/use-audience-size";
import { usePropCatalog } from "@/lib/client/use-prop-catalog";
import { useSegments } from "@/lib/client/use-segments";
import type { FilterGroup } from "@/lib/leads/filter-grammar";

function sizeText(size: AudienceSize): string {
  switch (size.state) {
    case "everyone":
      return "Everyone";
    case "counting":
      return "Counting…";
    case "counted":
      return `${formatCount(size.total)} ${size.total === 1 ? "lead matches" : "leads match"} now`;
    case "failed":
      return `Could not count the leads: ${size.message}`;
  }
}

/**
 * To whom (a proactive message's or a bot's audience): the Leads filter builder and how many leads it matches now,
 * a guide to the reach (the audience itself is checked for each user when it applies). `note` says what the
 * conditions mean, with them (`some`) and without (`none`).
 */
export function AudienceFields({
  appId,
  value,
  onChange,
  error,
  note,
}: {
  appId: string;
  value: FilterGroup;
  onChange: (audience: FilterGroup) => void;
  error: string | undefined;
  note: { some: string; none: string };
}) {
  const catalog = usePropCatalog(appId);
  const segments = useSegments(appId);
  const size = useAudienceSize(appId, value);
  // The count is of what would be saved; a condition without a value is not, and saving says so.
  const open = countConditions(value) - countConditions(cleanFilter(value));
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-600">{value.filters.length ? note.some : note.none}</p>
      <FilterBuilder
        value={value}
        catalog={catalog.data ?? []}
        segments={segments.data ?? []}
        onChange={onChange}
      />
      <p
        role="status"
        data-testid="audience-size"
        className={size.state === "failed" ? "text-sm text-red-700" : "text-sm text-slate-700"}
      >
        {sizeText(size)}
        {open > 0 && " (conditions without a value are not counted)"}
      </p>
      {error && (
        <p role="alert" className="text-sm text-red-700" data-invalid="true" tabIndex={-1}>
          {error}
        </p>
      )}
      <ErrorAlert error={catalog.error} title="Could not load the property list" />
    </div>
  );
}
