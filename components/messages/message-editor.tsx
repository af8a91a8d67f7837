"use client";

import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { isApiClientError } from "@/lib/client/api";
import { MESSAGE_KINDS, MESSAGE_STATUSES } from "@/lib/messages/schemas";
import type { Message, MessageKind, MessageStatus, MessageWrite } from "@/lib/client/messages-types";
import { useAdmins } from "@/lib/client/use-admins";
import { useBots } from "@/lib/client/use-bots";
import { useMessages } from "@/lib/client/use-messages";
import { useMessengerSettings } from "@/lib/client/use-messenger-settings";
import { useSaveMessage } from "@/lib/client/use-save-message";
import { Section, Select } from "./controls";
import { MessageContentFields } from "./message-content-fields";
import { KIND_LABEL, STATUS_LABEL } from "./message-format";
import { answeredBy, formErrors, type Control } from "./message-form-errors";
import { toWrite, type MessageForm } from "./message-form-state";
import { MessagePreview } from "./message-preview";
import { MessageRulesFields } from "./message-rules-fields";
import { SaveSummary } from "./save-summary";

interface EditorProps {
  appId: string;
  /** null: a new message. */
  messageId: string | null;
  /** The form is its parent's, so switching to the statistics and back keeps unsaved changes. */
  form: MessageForm;
  onChange: (next: MessageForm) => void;
  onSaved: (m: Message) => void;
}

/**
 * The message editor beside its preview. The server decides what is valid: its `error_fields` show beside each
 * field (the focus goes to the first), and a loop it refuses can be kept with "Save anyway".
 */
export function MessageEditor({ appId, messageId, form, onChange, onSaved }: EditorProps) {
  const base = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const save = useSaveMessage(appId, messageId);
  const admins = useAdmins(appId);
  const bots = useBots(appId, "live");
  const messenger = useMessengerSettings(appId);
  const live = useMessages(appId, "live");
  const [local, setLocal] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  // Controls edited since the last refusal: their errors are answered.
  const [answered, setAnswered] = useState<ReadonlySet<Control>>(new Set());
  // Set after a refusal: the first invalid control takes the focus once it is drawn.
  const [refused, setRefused] = useState(0);

  const errors = formErrors(
    { ...(isApiClientError(save.error) ? save.error.fields : {}), ...local },
    answered,
  );

  useEffect(() => {
    if (!refused) return;
    // The audience's error is the builder's, which has no one control to mark invalid: its text takes the focus.
    const first = formRef.current?.querySelector<HTMLElement>("[aria-invalid=true], [data-invalid=true]");
    first?.focus();
  }, [refused]);

  const set = (patch: Partial<MessageForm>) => {
    setSaved(false);
    setAnswered((a) => new Set([...a, ...answeredBy(patch)]));
    onChange({ ...form, ...patch });
  };

  const send = (body: MessageWrite) => {
    setAnswered(new Set());
    save.mutate(body, {
      onSuccess: (m) => {
        setSaved(true);
        onSaved(m);
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

  const saveAnyway = () => {
    const w = toWrite(form);
    if (w.ok) send({ ...w.body, confirm_loop: true });
  };

  const chains = (live.data ?? []).filter((m) => String(m.id) !== messageId && Number(m.id) > 0);

  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
      <form
        ref={formRef}
        onSubmit={submit}
        noValidate
        aria-label={messageId ? "Edit message" : "New message"}
        className="space-y-5 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
      >
        <Section legend="Message">
          <Field label="Name" hint="Only operators see it." error={errors.at.name}>
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
          <fieldset aria-describedby={errors.at.kind ? `${base}-kind-error` : undefined}>
            <legend className="text-sm font-medium text-slate-800">Kind</legend>
            <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
              {MESSAGE_KINDS.map((k: MessageKind) => (
                <label key={k} className="flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="radio"
                    name={`${base}-kind`}
                    className="size-4"
                    checked={form.kind === k}
                    onChange={() => set({ kind: k })}
                  />
                  {KIND_LABEL[k]}
                </label>
              ))}
            </div>
            {errors.at.kind && (
              <p id={`${base}-kind-error`} className="mt-1 text-sm text-red-700">
                {errors.at.kind}
              </p>
            )}
          </fieldset>
          <Field
            label="Status"
            hint="An active message is sent as soon as it is saved."
            error={errors.at.status}
          >
            {(control) => (
              <Select
                control={control}
                className="w-48"
                value={form.status}
                onChange={(e) =>
                  set({ status: MESSAGE_STATUSES.find((s) => s === e.target.value) ?? form.status })
                }
              >
                {MESSAGE_STATUSES.map((s: MessageStatus) => (
                  <option key={s} value={s}>
                    {STATUS_LABEL[s]}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        </Section>
        <MessageContentFields
          form={form}
          set={set}
          errors={errors.at}
          operators={admins.data}
          bots={bots.data}
        />
        <MessageRulesFields appId={appId} form={form} set={set} errors={errors.at} chains={chains} />
        <SaveSummary
          error={save.error}
          local={Object.keys(local).length > 0}
          rest={errors.rest}
          loop={errors.loop}
          onSaveAnyway={saveAnyway}
          pending={save.isPending}
        />
        <div className="flex items-center gap-3">
          <Button type="submit" loading={save.isPending}>
            {messageId ? "Save changes" : "Create message"}
          </Button>
          <p aria-live="polite" className="text-sm text-emerald-700">
            {saved ? "Saved." : ""}
          </p>
        </div>
      </form>
      <div className="xl:sticky xl:top-4 xl:self-start">
        <MessagePreview form={form} operators={admins.data} accent={messenger.data?.accent_color} />
      </div>
    </div>
  );
}
