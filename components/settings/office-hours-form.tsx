"use client";

import { useEffect, useId, useState, type FormEvent } from "react";
import { WEEKDAYS, type Weekday } from "@/lib/apps/office-hours";
import type { OfficeHoursState } from "@/lib/apps/schemas";
import { isApiClientError } from "@/lib/client/api";
import { useUpdateOfficeHours } from "@/lib/client/use-update-office-hours";
import { OfficeHoursDay, dayIds } from "./office-hours-day";
import { OfficeHoursHolidays, holidayIds } from "./office-hours-holidays";
import { newRange, rowKey, toForm, toHours, type DayRow, type HoursForm } from "./office-hours-state";
import { SaveRow } from "./save-row";

/**
 * The office hours, saved whole: "Always open", or a week of ranges and a list of holidays. Adding a range or a
 * holiday moves the focus into it; removing one moves it to the row that takes its place (or to the Add button).
 */
export function OfficeHoursForm({
  appId,
  state,
  titleId,
}: {
  appId: string;
  state: OfficeHoursState;
  titleId: string;
}) {
  const base = useId();
  const update = useUpdateOfficeHours(appId);
  const [form, setForm] = useState(() => toForm(state.office_hours));
  const [saved, setSaved] = useState(false);
  // The control to focus once the rows it belongs to are drawn.
  const [focus, setFocus] = useState<string | null>(null);
  const fields = isApiClientError(update.error) ? update.error.fields : {};

  useEffect(() => {
    if (focus === null) return;
    document.getElementById(focus)?.focus();
    setFocus(null);
  }, [focus]);

  const change = (next: (f: HoursForm) => HoursForm) => {
    setSaved(false);
    setForm(next);
  };
  /** Rows added or removed: the API's errors name rows by position, which no longer hold. */
  const reshape = (next: (f: HoursForm) => HoursForm, focusId: string) => {
    update.reset();
    change(next);
    setFocus(focusId);
  };
  const setDay = (d: Weekday, row: DayRow) => change((f) => ({ ...f, days: { ...f.days, [d]: row } }));

  const addRange = (d: Weekday) =>
    reshape(
      (f) => ({
        ...f,
        days: { ...f.days, [d]: { ...f.days[d], ranges: [...f.days[d].ranges, newRange()] } },
      }),
      dayIds(base, d).start(form.days[d].ranges.length),
    );
  const removeRange = (d: Weekday, i: number) => {
    const left = form.days[d].ranges.length - 1;
    reshape(
      (f) => ({
        ...f,
        days: { ...f.days, [d]: { ...f.days[d], ranges: f.days[d].ranges.filter((_, j) => j !== i) } },
      }),
      i < left ? dayIds(base, d).start(i) : dayIds(base, d).add,
    );
  };
  const addHoliday = () =>
    reshape(
      (f) => ({ ...f, holidays: [...f.holidays, { key: rowKey(), date: "" }] }),
      holidayIds(base).date(form.holidays.length),
    );
  const removeHoliday = (i: number) => {
    const left = form.holidays.length - 1;
    reshape(
      (f) => ({ ...f, holidays: f.holidays.filter((_, j) => j !== i) }),
      i < left ? holidayIds(base).date(i) : holidayIds(base).add,
    );
  };
  const setHoliday = (i: number, date: string) =>
    change((f) => ({ ...f, holidays: f.holidays.map((h, j) => (j === i ? { ...h, date } : h)) }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    update.mutate(toHours(form), {
      onSuccess: (s) => {
        // The week stays as it was under "Always open", for switching back.
        if (s.office_hours) setForm(toForm(s.office_hours));
        setSaved(true);
      },
    });
  };

  const radio = (always: boolean, label: string, hint: string) => (
    <label className="flex items-start gap-2.5 text-sm text-slate-800">
      <input
        type="radio"
        name={`${base}-mode`}
        className="mt-0.5 size-4"
        checked={form.always === always}
        onChange={() => change((f) => ({ ...f, always }))}
      />
      <span>
        <span className="font-medium">{label}</span>
        <span className="block text-slate-600">{hint}</span>
      </span>
    </label>
  );

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-labelledby={titleId}>
      <fieldset className="space-y-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">When the team answers</legend>
        {radio(
          true,
          "Always open",
          "The messenger shows the team as away only when no operator is Available.",
        )}
        {radio(
          false,
          "Set office hours",
          "Outside them the messenger shows the team away, and when it is back.",
        )}
      </fieldset>
      {!form.always && (
        <>
          <fieldset className="border-t border-slate-200 pt-4">
            <legend className="text-sm font-semibold text-slate-900">Weekly hours</legend>
            <p className="mb-1 text-sm text-slate-600">
              A range that ends before it starts runs past midnight into the next day.
            </p>
            {WEEKDAYS.map((d) => (
              <OfficeHoursDay
                key={d}
                base={base}
                day={d}
                row={form.days[d]}
                fields={fields}
                onChange={(row) => setDay(d, row)}
                onAdd={() => addRange(d)}
                onRemove={(i) => removeRange(d, i)}
              />
            ))}
          </fieldset>
          <OfficeHoursHolidays
            base={base}
            rows={form.holidays}
            fields={fields}
            onChange={setHoliday}
            onAdd={addHoliday}
            onRemove={removeHoliday}
          />
        </>
      )}
      <SaveRow
        label="Save office hours"
        pending={update.isPending}
        saved={saved}
        error={update.error}
        errorTitle="Could not save the office hours"
      />
    </form>
  );
}
