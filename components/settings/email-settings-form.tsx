"use client";

import { useState, type FormEvent, type ReactNode } from "react";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { isApiClientError } from "@/lib/client/api";
import { plural } from "@/lib/client/format";
import type { EmailSettings } from "@/lib/client/settings-types";
import { useUpdateEmailSettings } from "@/lib/client/use-update-email-settings";
import { SaveRow } from "./save-row";
import { SectionCard } from "./section-card";

/** The API's limit (MAX_DELAY of lib/email/settings.ts, a server module): a day. */
const MAX_DELAY = 86_400;
type Unit = "min" | "s";

/** A delay as people say it: "45 seconds", "1 hour 30 minutes". */
function friendlyDelay(seconds: number): string {
  const count = (n: number, word: string) => `${n} ${plural(n, word)}`;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const parts = [h && count(h, "hour"), m && count(m, "minute"), s && count(s, "second")];
  return parts.filter(Boolean).join(" ");
}

/** A delay as the form edits it: what is typed, and its unit. */
interface Delay {
  amount: string;
  unit: Unit;
}

/** Minutes read better, unless the stored seconds are not whole minutes. */
const toDelay = (seconds: number): Delay =>
  seconds % 60 === 0 ? { amount: String(seconds / 60), unit: "min" } : { amount: String(seconds), unit: "s" };

/** The delay in seconds, or null when it is not a whole number in 0..24 hours. */
function delaySeconds(d: Delay): number | null {
  if (!/^\d+$/.test(d.amount.trim())) return null;
  const n = Number(d.amount) * (d.unit === "min" ? 60 : 1);
  return n <= MAX_DELAY ? n : null;
}

/** Another unit for the same duration (5 minutes become 300 seconds); what cannot be said in it stays as typed. */
function withUnit(d: Delay, unit: Unit): Delay {
  const seconds = delaySeconds(d);
  if (seconds === null || (unit === "min" && seconds % 60 !== 0)) return { ...d, unit };
  return { amount: String(unit === "min" ? seconds / 60 : seconds), unit };
}

const selectClass =
  "h-10 rounded-lg bg-white px-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 disabled:bg-slate-50 disabled:text-slate-500";

function DelayField({
  label,
  value,
  onChange,
  disabled,
  error,
  what,
}: {
  label: string;
  value: Delay;
  onChange: (d: Delay) => void;
  disabled: boolean;
  error?: string;
  /** What waits, for the hint ("A reply"). */
  what: string;
}) {
  const seconds = delaySeconds(value);
  const hint =
    seconds === null
      ? undefined
      : seconds === 0
        ? `${what} is emailed as soon as it is unread.`
        : `${what} still unread after ${friendlyDelay(seconds)} is emailed.`;
  return (
    <Field
      label={label}
      error={error ?? (seconds === null ? "Enter a whole number, at most 24 hours." : undefined)}
      hint={hint}
      className="pl-6"
    >
      {(control) => (
        <div className="flex items-center gap-2">
          <Input
            {...control}
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            className="w-28"
            value={value.amount}
            disabled={disabled}
            onChange={(e) => onChange({ ...value, amount: e.target.value })}
          />
          <select
            aria-label={`Unit of the ${label.toLowerCase()}`}
            className={selectClass}
            value={value.unit}
            disabled={disabled}
            onChange={(e) => onChange(withUnit(value, e.target.value === "s" ? "s" : "min"))}
          >
            <option value="min">minutes</option>
            <option value="s">seconds</option>
          </select>
        </div>
      )}
    </Field>
  );
}

function Toggle({
  checked,
  onChange,
  title,
  children,
}: {
  checked: boolean;
  onChange: (on: boolean) => void;
  title: string;
  children: ReactNode;
}) {
  return (
    <label className="flex items-start gap-2.5 text-sm text-slate-800">
      <input
        type="checkbox"
        className="mt-0.5 size-4"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span>
        <span className="font-medium">{title}</span>
        <span className="block text-slate-600">{children}</span>
      </span>
    </label>
  );
}

function formState(s: EmailSettings) {
  return {
    sender_name: s.sender_name,
    address_local: s.address_local,
    continuity: s.continuity,
    continuity_delay: toDelay(s.continuity_delay),
    operator_emails: s.operator_emails,
    operator_delay: toDelay(s.operator_delay),
    transcripts: s.transcripts,
  };
}

/** The sender, the address and which emails go out, saved together. */
export function EmailSettingsForm({ appId, settings }: { appId: string; settings: EmailSettings }) {
  const update = useUpdateEmailSettings(appId);
  const [form, setForm] = useState(() => formState(settings));
  const [saved, setSaved] = useState(false);
  const fields = isApiClientError(update.error) ? update.error.fields : {};
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => {
    setSaved(false);
    setForm((f) => ({ ...f, [key]: value }));
  };
  const continuityDelay = delaySeconds(form.continuity_delay);
  const operatorDelay = delaySeconds(form.operator_delay);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    // The fields say what is wrong already; the server would only refuse the same.
    if (continuityDelay === null || operatorDelay === null) return;
    update.mutate(
      {
        sender_name: form.sender_name.trim(),
        address_local: form.address_local.trim(),
        continuity: form.continuity,
        continuity_delay: continuityDelay,
        operator_emails: form.operator_emails,
        operator_delay: operatorDelay,
        transcripts: form.transcripts,
      },
      {
        // The server's form (the app's name for an empty sender, a lowercased address) replaces the typed one.
        onSuccess: (s) => {
          setForm(formState(s));
          setSaved(true);
        },
      },
    );
  };

  return (
    <SectionCard
      title="What the app emails"
      titleId="email-settings-title"
      description="The sender and address of every email, and which emails go out."
    >
      <form onSubmit={submit} noValidate className="space-y-5" aria-labelledby="email-settings-title">
        <Field
          label="Sender name"
          error={fields.sender_name}
          hint="Beside the operator's name in From. Leave empty for the app's name."
        >
          {(control) => (
            <Input
              {...control}
              maxLength={100}
              value={form.sender_name}
              onChange={(e) => set("sender_name", e.target.value)}
            />
          )}
        </Field>
        <Field
          label="Address"
          error={fields.address_local}
          hint={`Letters, digits, dots, dashes and underscores. Leave empty for app-${String(settings.app)}.`}
        >
          {(control) => (
            <div className="flex items-center gap-2">
              <Input
                {...control}
                maxLength={64}
                spellCheck={false}
                autoComplete="off"
                className="w-64 max-w-full font-mono"
                value={form.address_local}
                onChange={(e) => set("address_local", e.target.value)}
              />
              <span className="font-mono text-sm break-all text-slate-700">@{settings.domain}</span>
            </div>
          )}
        </Field>
        <div className="space-y-3 border-t border-slate-200 pt-4">
          <Toggle
            checked={form.continuity}
            onChange={(on) => set("continuity", on)}
            title="Email replies the visitor has not read"
          >
            A visitor who left the site gets the operator&apos;s reply by email, and can answer it.
          </Toggle>
          <DelayField
            label="Continuity delay"
            value={form.continuity_delay}
            onChange={(d) => set("continuity_delay", d)}
            disabled={!form.continuity}
            error={fields.continuity_delay}
            what="A reply"
          />
        </div>
        <div className="space-y-3 border-t border-slate-200 pt-4">
          <Toggle
            checked={form.operator_emails}
            onChange={(on) => set("operator_emails", on)}
            title="Email operators"
          >
            Of visitors&apos; messages nobody has read, of mentions and of assignments.
          </Toggle>
          <DelayField
            label="Operator delay"
            value={form.operator_delay}
            onChange={(d) => set("operator_delay", d)}
            disabled={!form.operator_emails}
            error={fields.operator_delay}
            what="A visitor's message"
          />
        </div>
        <div className="border-t border-slate-200 pt-4">
          <Toggle
            checked={form.transcripts}
            onChange={(on) => set("transcripts", on)}
            title="Email transcripts"
          >
            A closed conversation is emailed to its visitor.
          </Toggle>
        </div>
        <SaveRow
          label="Save email settings"
          pending={update.isPending}
          saved={saved}
          error={update.error}
          errorTitle="Could not save the email settings"
        />
      </form>
    </SectionCard>
  );
}
