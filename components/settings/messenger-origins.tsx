"use client";

import { useState, type FormEvent } from "react";
import { Field } from "@/components/ui/field";
import type { MessengerSettings } from "@/lib/client/settings-types";
import { useUpdateMessengerSettings } from "@/lib/client/use-update-messenger-settings";
import { SaveRow } from "./save-row";
import { SectionCard } from "./section-card";

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

/** The sites the messenger may run on, one origin a line; none: every site. */
export function MessengerOrigins({ appId, settings }: { appId: string; settings: MessengerSettings }) {
  const update = useUpdateMessengerSettings(appId);
  const [text, setText] = useState(settings.allowed_origins.join("\n"));
  const [saved, setSaved] = useState(false);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    update.mutate(
      { allowed_origins: lines(text) },
      {
        // The server's normalized form (lowercase, no default port) replaces what was typed.
        onSuccess: (s) => {
          setText(s.allowed_origins.join("\n"));
          setSaved(true);
        },
      },
    );
  };

  return (
    <SectionCard
      title="Allowed origins"
      titleId="messenger-origins-title"
      description="The sites where the messenger may run. Leave empty to allow every site."
    >
      <form onSubmit={submit} noValidate className="space-y-4" aria-labelledby="messenger-origins-title">
        <Field label="Origins, one per line" hint="scheme://host[:port], e.g. https://shop.example.com">
          {(control) => (
            <textarea
              {...control}
              rows={4}
              spellCheck={false}
              placeholder="https://shop.example.com"
              value={text}
              onChange={(e) => setText(e.target.value)}
              className="block w-full rounded-lg bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none aria-invalid:ring-red-400"
              aria-invalid={update.isError || undefined}
            />
          )}
        </Field>
        <SaveRow
          label="Save origins"
          pending={update.isPending}
          saved={saved}
          error={update.error}
          errorTitle="Could not save the origins"
        />
      </form>
    </SectionCard>
  );
}
