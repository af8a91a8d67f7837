"use client";

import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { Section } from "@/components/messages/controls";
import { Button } from "@/components/ui/button";
import { isApiClientError } from "@/lib/client/api";
import type { Bot, BotWrite, Step } from "@/lib/client/bots-types";
import { useAdmins } from "@/lib/client/use-admins";
import { useChannels } from "@/lib/client/use-channels";
import { useCurrentApp } from "@/lib/client/use-current-app";
import { useMessengerSettings } from "@/lib/client/use-messenger-settings";
import { useSaveBot } from "@/lib/client/use-save-bot";
import { botErrors } from "./bot-form-errors";
import { toWrite, type BotForm } from "./bot-form-state";
import { BotFields, StartFields } from "./bot-settings-fields";
import { StepsEditor } from "./steps-editor";
import { TestPanel } from "./test-panel";

interface EditorProps {
  appId: string;
  /** null: a new bot. */
  botId: string | null;
  /** The form is its parent's, so a refused save or a refetch never loses the operator's edits. */
  form: BotForm;
  onChange: (next: BotForm) => void;
  onSaved: (b: Bot) => void;
}

/**
 * The bot editor beside its test mode. The server decides what is valid: its `error_fields` show beside each field
 * and in each step's card (the focus goes to the first); what no field shows is listed above Save.
 */
export function BotEditor({ appId, botId, form, onChange, onSaved }: EditorProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const save = useSaveBot(appId, botId);
  const admins = useAdmins(appId);
  const channels = useChannels(appId);
  const messenger = useMessengerSettings(appId);
  const { app } = useCurrentApp();
  const [local, setLocal] = useState<Record<string, string>>({});
  // The steps the refused request carried: its error paths are theirs.
  const [sent, setSent] = useState<Step[]>([]);
  const [saved, setSaved] = useState(false);
  // Controls and step IDs edited since the last refusal: their errors are answered.
  const [answered, setAnswered] = useState<ReadonlySet<string>>(new Set());
  // Set after a refusal: the first invalid control takes the focus once it is drawn.
  const [refused, setRefused] = useState(0);

  const errors = botErrors(
    { ...(isApiClientError(save.error) ? save.error.fields : {}), ...local },
    sent,
    form.steps,
    answered,
  );

  useEffect(() => {
    if (!refused) return;
    const first = formRef.current?.querySelector<HTMLElement>("[aria-invalid=true], [data-invalid=true]");
    first?.focus();
  }, [refused]);

  const set = (patch: Partial<BotForm>) => {
    setSaved(false);
    // The form's keys are the controls' names (BotControl).
    setAnswered((a) => new Set([...a, ...Object.keys(patch)]));
    onChange({ ...form, ...patch });
  };
  // Stable for the steps editor's context; reads the newest form through the ref.
  const latest = useRef({ form, onChange });
  useEffect(() => {
    latest.current = { form, onChange };
  });
  const setSteps = useCallback((steps: Step[], touched: string | undefined) => {
    setSaved(false);
    if (touched) setAnswered((a) => new Set([...a, touched]));
    latest.current.onChange({ ...latest.current.form, steps });
  }, []);

  const send = (body: BotWrite) => {
    setAnswered(new Set());
    setSent(body.steps);
    save.mutate(body, {
      onSuccess: (b) => {
        setSaved(true);
        onSaved(b);
      },
      onError: () => setRefused((n) => n + 1),
    });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const w = toWrite(form);
    if (!w.ok) {
      save.reset();
      setAnswered(new Set());
      setLocal(w.errors);
      setRefused((n) => n + 1);
      return;
    }
    setLocal({});
    send(w.body);
  };

  const operator = admins.data?.find((a) => String(a.id) === form.sender);
  const failed = Object.keys(local).length > 0 || save.isError;
  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
      <form
        ref={formRef}
        onSubmit={submit}
        noValidate
        aria-label={botId ? "Edit bot" : "New bot"}
        className="min-w-0 space-y-5 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
      >
        {failed && (
          <div
            role="alert"
            className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
          >
            <p className="font-medium">The bot was not saved</p>
            <p>
              {Object.keys(local).length ? "Check the fields marked below." : save.error?.message}
              {" Your changes are still here."}
            </p>
            {errors.rest.length > 0 && (
              <ul className="mt-1 list-disc pl-5">
                {errors.rest.map(([field, text]) => (
                  <li key={field}>
                    <span className="font-mono">{field}</span>: {text}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        <BotFields form={form} set={set} errors={errors.at} operators={admins.data} />
        <StartFields appId={appId} form={form} set={set} errors={errors.at} />
        <Section legend="Steps">
          <p className="text-sm text-slate-600">
            The bot runs them from the top. After a button&apos;s steps it goes on with what follows the
            buttons; at the end it hands over to the team.
          </p>
          <StepsEditor
            steps={form.steps}
            onChange={setSteps}
            errors={errors.steps}
            stepsError={errors.allSteps}
            operators={admins.data}
            channels={channels.data}
          />
        </Section>
        <div className="flex items-center gap-3 border-t border-slate-200 pt-4">
          <Button type="submit" loading={save.isPending}>
            {botId ? "Save changes" : "Create bot"}
          </Button>
          <p aria-live="polite" className="text-sm text-emerald-700">
            {saved ? "Saved." : ""}
          </p>
        </div>
      </form>
      <div className="xl:sticky xl:top-4 xl:self-start">
        <TestPanel
          steps={form.steps}
          sender={{ name: operator?.name ?? app?.name ?? "The app", avatar: operator?.avatar || undefined }}
          accent={messenger.data?.accent_color}
          operators={admins.data}
          channels={channels.data}
        />
      </div>
    </div>
  );
}
