"use client";

import { useState, type ChangeEvent, type FormEvent } from "react";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { isApiClientError } from "@/lib/client/api";
import type { MessengerPosition, MessengerSettings } from "@/lib/client/settings-types";
import { useUpdateMessengerSettings } from "@/lib/client/use-update-messenger-settings";
import { MESSENGER_POSITIONS, MESSENGER_TEXT_MAX, type MessengerTextField } from "@/lib/messenger/schemas";
import { SaveRow } from "./save-row";
import { MessengerPreview } from "./messenger-preview";
import { SectionCard } from "./section-card";

const TEXTS: { field: MessengerTextField; label: string; multiline?: boolean }[] = [
  { field: "greeting", label: "Greeting" },
  { field: "team_intro", label: "Team intro", multiline: true },
  { field: "reply_time_text", label: "Reply-time text" },
  { field: "offline_text", label: "Offline text", multiline: true },
  { field: "email_prompt", label: "Email prompt" },
];

const textareaClass =
  "block w-full rounded-lg bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none";

/** Colour, side and every text a visitor reads. */
export function MessengerAppearance({ appId, settings }: { appId: string; settings: MessengerSettings }) {
  const update = useUpdateMessengerSettings(appId);
  const [color, setColor] = useState(settings.accent_color);
  const [position, setPosition] = useState<MessengerPosition>(settings.position);
  const [texts, setTexts] = useState<Record<MessengerTextField, string>>({
    greeting: settings.greeting,
    team_intro: settings.team_intro,
    reply_time_text: settings.reply_time_text,
    offline_text: settings.offline_text,
    email_prompt: settings.email_prompt,
  });
  const [saved, setSaved] = useState(false);
  const fields = isApiClientError(update.error) ? update.error.fields : {};

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    update.mutate({ accent_color: color, position, ...texts }, { onSuccess: () => setSaved(true) });
  };

  return (
    <SectionCard
      title="Appearance"
      titleId="messenger-appearance-title"
      description="How the messenger looks and what it says to visitors."
    >
      <form onSubmit={submit} noValidate className="space-y-4" aria-labelledby="messenger-appearance-title">
        <div className="flex flex-wrap gap-6">
          <Field label="Accent colour" error={fields.accent_color}>
            {(control) => (
              <div className="flex items-center gap-2">
                <input
                  type="color"
                  aria-label="Pick the accent colour"
                  value={/^#[0-9a-f]{6}$/i.test(color) ? color : "#000000"}
                  onChange={(e) => setColor(e.target.value)}
                  className="h-10 w-12 cursor-pointer rounded border border-slate-300 bg-white"
                />
                <Input
                  {...control}
                  value={color}
                  onChange={(e) => setColor(e.target.value)}
                  className="w-32 font-mono"
                />
              </div>
            )}
          </Field>
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">Position</legend>
            <div className="mt-2 flex gap-4">
              {MESSENGER_POSITIONS.map((p) => (
                <label key={p} className="flex items-center gap-1.5 text-sm text-slate-800">
                  <input
                    type="radio"
                    name="messenger-position"
                    value={p}
                    checked={position === p}
                    onChange={() => setPosition(p)}
                  />
                  {p === "right" ? "Bottom right" : "Bottom left"}
                </label>
              ))}
            </div>
          </fieldset>
        </div>
        {TEXTS.map(({ field, label, multiline }) => (
          <Field
            key={field}
            label={label}
            error={fields[field]}
            hint={`Up to ${MESSENGER_TEXT_MAX[field]} characters.`}
          >
            {(control) => {
              const props = {
                ...control,
                maxLength: MESSENGER_TEXT_MAX[field],
                value: texts[field],
                onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
                  setTexts((t) => ({ ...t, [field]: e.target.value })),
              };
              return multiline ? (
                <textarea {...props} rows={2} className={textareaClass} />
              ) : (
                <Input {...props} />
              );
            }}
          </Field>
        ))}
        <MessengerPreview
          color={color}
          position={position}
          greeting={texts.greeting}
          teamIntro={texts.team_intro}
          replyTimeText={texts.reply_time_text}
        />
        <SaveRow
          label="Save appearance"
          pending={update.isPending}
          saved={saved}
          error={update.error}
          errorTitle="Could not save the appearance"
        />
      </form>
    </SectionCard>
  );
}
