"use client";

import { useId } from "react";
import { AudienceFields } from "@/components/leads/audience-fields";
import { Section, Select } from "@/components/messages/controls";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { cleanUserText } from "@/components/ui/user-text";
import { BOT_KINDS, BOT_STATUSES, BOT_WHEN } from "@/lib/bots/steps";
import type { AdminMember } from "@/lib/client/settings-types";
import { KIND_HINT, KIND_LABEL, STATUS_LABEL, WHEN_HINT, WHEN_LABEL } from "./bot-format";
import type { BotControl } from "./bot-form-errors";
import type { BotForm } from "./bot-form-state";

export interface SettingsProps {
  form: BotForm;
  set: (patch: Partial<BotForm>) => void;
  errors: Partial<Record<BotControl, string>>;
}

/** A radio group whose options each explain themselves. */
function Choices<T extends string>({
  legend,
  options,
  value,
  label,
  hint,
  error,
  onChange,
}: {
  legend: string;
  options: readonly T[];
  value: T;
  label: Record<T, string>;
  hint: Record<T, string>;
  error: string | undefined;
  onChange: (v: T) => void;
}) {
  const base = useId();
  return (
    <fieldset aria-describedby={error ? `${base}-error` : undefined}>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {options.map((o) => (
          <label
            key={o}
            className="flex items-start gap-2.5 rounded-lg p-2 text-sm ring-1 ring-slate-200 ring-inset has-checked:bg-brand-50 has-checked:ring-brand-500"
          >
            <input
              type="radio"
              name={`${base}-choice`}
              className="mt-0.5 size-4 shrink-0"
              checked={value === o}
              aria-describedby={`${base}-${o}`}
              onChange={() => onChange(o)}
            />
            <span>
              <span className="font-medium text-slate-900">{label[o]}</span>
              <span id={`${base}-${o}`} className="block text-slate-600">
                {hint[o]}
              </span>
            </span>
          </label>
        ))}
      </div>
      {error && (
        <p id={`${base}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The bot's name, kind, voice and status. */
export function BotFields({
  form,
  set,
  errors,
  operators,
}: SettingsProps & { operators: AdminMember[] | undefined }) {
  return (
    <Section legend="Bot">
      <Field label="Name" hint="Only operators see it." error={errors.name}>
        {(control) => (
          <Input
            {...control}
            value={form.name}
            maxLength={255}
            autoComplete="off"
            onChange={(e) => set({ name: e.target.value })}
          />
        )}
      </Field>
      <Choices
        legend="Kind"
        options={BOT_KINDS}
        value={form.kind}
        label={KIND_LABEL}
        hint={KIND_HINT}
        error={errors.kind}
        onChange={(kind) => set({ kind })}
      />
      <div className="flex flex-wrap gap-4">
        <Field
          label="Speaks as"
          className="w-72"
          hint="The name and picture on the bot's messages."
          error={errors.sender}
        >
          {(control) => (
            <Select control={control} value={form.sender} onChange={(e) => set({ sender: e.target.value })}>
              <option value="0">The app</option>
              {operators?.map((a) => (
                <option key={String(a.id)} value={String(a.id)}>
                  {cleanUserText(a.name)}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field
          label="Status"
          className="w-48"
          hint="An active bot starts on new conversations once saved."
          error={errors.status}
        >
          {(control) => (
            <Select
              control={control}
              value={form.status}
              onChange={(e) => set({ status: BOT_STATUSES.find((s) => s === e.target.value) ?? form.status })}
            >
              {BOT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABEL[s]}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </div>
    </Section>
  );
}

/** When the bot starts: the rule, and the visitors it starts for (the Leads filter builder). */
export function StartFields({ appId, form, set, errors }: SettingsProps & { appId: string }) {
  return (
    <Section legend="Start">
      <Choices
        legend="When it starts"
        options={BOT_WHEN}
        value={form.when}
        label={WHEN_LABEL}
        hint={WHEN_HINT}
        error={errors.when}
        onChange={(when) => set({ when })}
      />
      <section aria-label="Audience" className="space-y-2">
        <h3 className="text-sm font-medium text-slate-800">Audience</h3>
        <AudienceFields
          appId={appId}
          value={form.audience}
          onChange={(audience) => set({ audience })}
          error={errors.audience}
          note={{ some: "Only visitors who match these conditions.", none: "No condition: every visitor." }}
        />
      </section>
    </Section>
  );
}
