"use client";

import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { MAX_HOLIDAYS, errorAt, type HolidayRow } from "./office-hours-state";

export const holidayIds = (base: string) => ({
  add: `${base}-holiday-add`,
  date: (i: number) => `${base}-holiday-${i}`,
});

/** The dates the app is closed all day (in its time zone), each with the API's error about it underneath. */
export function OfficeHoursHolidays({
  base,
  rows,
  fields,
  onChange,
  onAdd,
  onRemove,
}: {
  base: string;
  rows: HolidayRow[];
  fields: Record<string, string>;
  onChange: (index: number, date: string) => void;
  onAdd: () => void;
  onRemove: (index: number) => void;
}) {
  const ids = holidayIds(base);
  const listError = errorAt(fields, "holidays");
  return (
    <fieldset className="space-y-3 border-t border-slate-200 pt-4">
      <legend className="text-sm font-semibold text-slate-900">Holidays</legend>
      <p className="text-sm text-slate-600">Closed all day, overnight ranges that start on them included.</p>
      {rows.length > 0 && (
        <ul className="space-y-2">
          {rows.map((h, i) => {
            const error = errorAt(fields, `holidays.${i}`);
            const errorId = `${ids.date(i)}-error`;
            return (
              <li key={h.key} className="space-y-1">
                <div className="flex flex-wrap items-center gap-2">
                  <Input
                    id={ids.date(i)}
                    type="date"
                    className="h-9 w-44"
                    aria-label={`Holiday ${i + 1}`}
                    aria-describedby={error ? errorId : undefined}
                    invalid={!!error}
                    value={h.date}
                    onChange={(e) => onChange(i, e.target.value)}
                  />
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Remove holiday ${i + 1}`}
                    onClick={() => onRemove(i)}
                  >
                    Remove
                  </Button>
                </div>
                {error && (
                  <p id={errorId} className="text-sm text-red-700">
                    {error}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {listError && <p className="text-sm text-red-700">{listError}</p>}
      <Button
        id={ids.add}
        variant="secondary"
        size="sm"
        disabled={rows.length >= MAX_HOLIDAYS}
        onClick={onAdd}
      >
        Add a holiday
      </Button>
    </fieldset>
  );
}
