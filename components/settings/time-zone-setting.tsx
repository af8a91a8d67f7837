"use client";

import { useId, useMemo, useState, type FormEvent } from "react";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { isTimeZone } from "@/lib/apps/schemas";
import { useAppSettings } from "@/lib/client/use-app-settings";
import { useUpdateTimeZone } from "@/lib/client/use-update-time-zone";
import { SaveRow } from "./save-row";
import { SectionCard } from "./section-card";

/** Every IANA zone the browser knows, UTC first (supportedValuesOf leaves the aliases out, UTC among them). */
function zones(): string[] {
  const all = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return ["UTC", ...all.filter((z) => z !== "UTC")];
}

/**
 * Settings → Office hours: the app's time zone, which the office hours and every report's days and hours are in.
 * A text field with the zones as suggestions (the browser's own list: typed to filter, arrows to choose).
 */
export function TimeZoneSetting({ appId }: { appId: string }) {
  const settings = useAppSettings(appId);
  const current = settings.data?.time_zone;
  // The form's text; null until the operator types, so the saved zone shows as it loads or changes.
  const [draft, setDraft] = useState<string | null>(null);
  const update = useUpdateTimeZone(appId);
  const listId = useId();
  const options = useMemo(zones, []);
  const value = draft ?? current ?? "";
  const problem =
    draft !== null && !isTimeZone(draft.trim()) ? "Choose a zone from the list, such as Europe/Paris." : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const tz = value.trim();
    if (!isTimeZone(tz) || tz === current) return;
    update.mutate(tz, { onSuccess: () => setDraft(null) });
  };
  return (
    <SectionCard
      title="Time zone"
      titleId="time-zone-title"
      description="The app's time zone: office hours, and the days and hours of every report, are in it."
    >
      <form className="space-y-3" onSubmit={submit} aria-labelledby="time-zone-title">
        <Field
          label="Time zone"
          hint={current ? `Now: ${current}. Type to search the list.` : "Type to search the list."}
          error={problem}
        >
          {(control) => (
            <Input
              {...control}
              data-testid="time-zone-input"
              list={listId}
              autoComplete="off"
              spellCheck={false}
              className="max-w-sm"
              value={value}
              disabled={!settings.data}
              onChange={(e) => setDraft(e.target.value)}
            />
          )}
        </Field>
        <datalist id={listId}>
          {options.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <SaveRow
          label="Save time zone"
          pending={update.isPending}
          saved={update.isSuccess && draft === null}
          error={update.error ?? settings.error}
          errorTitle="Could not change the time zone"
        />
      </form>
    </SectionCard>
  );
}
