"use client";

import type { Weekday } from "@/lib/apps/office-hours";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { DAY_NAMES, MAX_RANGES, errorAt, rangeErrorAt, type DayRow } from "./office-hours-state";

/** The ids of a day's controls, so that adding or removing a range can move the focus to the right one. */
export const dayIds = (base: string, day: Weekday) => ({
  add: `${base}-${day}-add`,
  start: (i: number) => `${base}-${day}-${i}-start`,
});

/**
 * One weekday of the editor: open or not, and its ranges of local time (a range ending before it starts runs past
 * midnight). The API's errors about a range sit under it, its inputs marked invalid.
 */
export function OfficeHoursDay({
  base,
  day,
  row,
  fields,
  onChange,
  onAdd,
  onRemove,
}: {
  base: string;
  day: Weekday;
  row: DayRow;
  fields: Record<string, string>;
  onChange: (row: DayRow) => void;
  onAdd: () => void;
  onRemove: (index: number) => void;
}) {
  const name = DAY_NAMES[day];
  const ids = dayIds(base, day);
  const dayError = row.open ? errorAt(fields, `weekly.${day}`) : undefined;
  const setTime = (i: number, which: "from" | "to", value: string) =>
    onChange({ ...row, ranges: row.ranges.map((r, j) => (j === i ? { ...r, [which]: value } : r)) });
  return (
    <div
      role="group"
      aria-labelledby={`${base}-${day}-name`}
      className="grid gap-3 border-t border-slate-200 py-3 first:border-t-0 sm:grid-cols-[9rem_1fr]"
    >
      <label className="flex h-9 items-center gap-2.5 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          className="size-4"
          checked={row.open}
          onChange={(e) => onChange({ ...row, open: e.target.checked })}
        />
        <span>
          <span className="sr-only">Open on </span>
          <span id={`${base}-${day}-name`}>{name}</span>
        </span>
      </label>
      {row.open ? (
        <div className="space-y-2">
          <ul className="space-y-2">
            {row.ranges.map((r, i) => {
              const error = rangeErrorAt(fields, `weekly.${day}.${i}`);
              const errorId = `${base}-${day}-${i}-error`;
              const described = error ? errorId : undefined;
              return (
                <li key={r.key} className="space-y-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <Input
                      id={ids.start(i)}
                      type="time"
                      className="h-9 w-32"
                      aria-label={`${name} range ${i + 1} start`}
                      aria-describedby={described}
                      invalid={error?.from}
                      value={r.from}
                      onChange={(e) => setTime(i, "from", e.target.value)}
                    />
                    <span aria-hidden="true" className="text-slate-500">
                      –
                    </span>
                    <Input
                      type="time"
                      className="h-9 w-32"
                      aria-label={`${name} range ${i + 1} end`}
                      aria-describedby={described}
                      invalid={error?.to}
                      value={r.to}
                      onChange={(e) => setTime(i, "to", e.target.value)}
                    />
                    {row.ranges.length > 1 && (
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-label={`Remove ${name} range ${i + 1}`}
                        onClick={() => onRemove(i)}
                      >
                        Remove
                      </Button>
                    )}
                  </div>
                  {error && (
                    <p id={errorId} className="text-sm text-red-700">
                      {error.message}
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
          {dayError && <p className="text-sm text-red-700">{dayError}</p>}
          <Button
            id={ids.add}
            variant="secondary"
            size="sm"
            aria-label={`Add a range on ${name}`}
            disabled={row.ranges.length >= MAX_RANGES}
            onClick={onAdd}
          >
            Add a range
          </Button>
        </div>
      ) : (
        <p className="flex h-9 items-center text-sm text-slate-500">Closed</p>
      )}
    </div>
  );
}
