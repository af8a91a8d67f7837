"use client";

import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { cleanUserText } from "@/components/ui/user-text";
import type { AdminMember } from "@/lib/client/settings-types";
import type { Bot } from "@/lib/client/bots-types";
import { Check, Section, Select, TextArea } from "./controls";
import type { Control } from "./message-form-errors";
import type { MessageForm } from "./message-form-state";

export interface FieldsProps {
  form: MessageForm;
  set: (patch: Partial<MessageForm>) => void;
  errors: Partial<Record<Control, string>>;
}

/**
 * What the visitor reads: by kind, the sender and text of a chat message, a pop-up's card, an email, or the bot
 * that opens a conversation (its steps are its text).
 */
export function MessageContentFields({
  form,
  set,
  errors,
  operators,
  bots,
}: FieldsProps & { operators: AdminMember[] | undefined; bots: Bot[] | undefined }) {
  const sender = (optional: boolean) => (
    <Field
      label="Sender"
      hint={optional ? "The operator the email is signed by; none: the app's email name." : undefined}
      error={errors.sender}
    >
      {(control) => (
        <Select
          control={control}
          value={form.sender}
          onChange={(e) => set({ sender: e.target.value })}
          disabled={!operators}
        >
          {(optional || !form.sender) && <option value="">{optional ? "None" : "Choose an operator"}</option>}
          {operators?.map((a) => (
            <option key={String(a.id)} value={String(a.id)}>
              {cleanUserText(a.name)} ({a.email})
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
  const body = (
    <Field label={form.kind === "email" ? "Email text" : "Text"} error={errors.body}>
      {(control) => (
        <TextArea
          control={control}
          rows={form.kind === "email" ? 8 : 4}
          value={form.body}
          maxLength={form.kind === "email" ? 20_000 : 5000}
          onChange={(e) => set({ body: e.target.value })}
        />
      )}
    </Field>
  );
  return (
    <Section legend="Content">
      {errors.content && (
        <p role="alert" className="text-sm text-red-700">
          {errors.content}
        </p>
      )}
      {form.kind === "chat" && (
        <>
          {sender(false)}
          {body}
        </>
      )}
      {form.kind === "bot" && <BotField form={form} set={set} errors={errors} bots={bots} />}
      {form.kind === "popup" && (
        <>
          <Field label="Title" error={errors.title}>
            {(control) => (
              <Input
                {...control}
                value={form.title}
                maxLength={255}
                onChange={(e) => set({ title: e.target.value })}
              />
            )}
          </Field>
          {body}
          <Check
            label="Ask for the visitor's email"
            hint="What they enter becomes the lead's email."
            checked={form.emailField}
            onChange={(e) => set({ emailField: e.target.checked })}
          />
          <Check
            label="Add a button"
            checked={form.button}
            onChange={(e) => set({ button: e.target.checked })}
          />
          {form.button && <ButtonFields form={form} set={set} errors={errors} />}
        </>
      )}
      {form.kind === "email" && (
        <>
          <Field label="Subject" error={errors.subject}>
            {(control) => (
              <Input
                {...control}
                value={form.subject}
                maxLength={255}
                onChange={(e) => set({ subject: e.target.value })}
              />
            )}
          </Field>
          {body}
          {sender(true)}
        </>
      )}
    </Section>
  );
}

/** The bot a bot message starts; one paused or archived since is still shown, so the choice is never lost. */
function BotField({ form, set, errors, bots }: FieldsProps & { bots: Bot[] | undefined }) {
  const chosen = bots?.find((b) => String(b.id) === form.bot);
  return (
    <Field
      label="Bot"
      hint="When the message is sent, a conversation opens with the bot's first steps and the bot runs it until it hands over. A paused bot sends nothing."
      error={errors.bot}
    >
      {(control) => (
        <Select
          control={control}
          value={form.bot}
          onChange={(e) => set({ bot: e.target.value })}
          disabled={!bots}
        >
          {!chosen && <option value={form.bot}>{form.bot ? `Bot ${form.bot}` : "Choose a bot"}</option>}
          {bots?.map((b) => (
            <option key={String(b.id)} value={String(b.id)}>
              {cleanUserText(b.name)}
              {b.status === "active" ? "" : ` (${b.status})`}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

function ButtonFields({ form, set, errors }: FieldsProps) {
  return (
    <div className="grid gap-4 border-l-2 border-slate-200 pl-4 sm:grid-cols-2">
      <Field label="Button label" error={errors.buttonLabel}>
        {(control) => (
          <Input
            {...control}
            value={form.buttonLabel}
            maxLength={60}
            onChange={(e) => set({ buttonLabel: e.target.value })}
          />
        )}
      </Field>
      <Field label="Button action">
        {(control) => (
          <Select
            control={control}
            value={form.buttonAction}
            onChange={(e) => set({ buttonAction: e.target.value === "reply" ? "reply" : "link" })}
          >
            <option value="link">Open a link</option>
            <option value="reply">Reply with the label (starts a conversation)</option>
          </Select>
        )}
      </Field>
      {form.buttonAction === "link" && (
        <Field label="Button link" className="sm:col-span-2" error={errors.buttonUrl}>
          {(control) => (
            <Input
              {...control}
              type="url"
              placeholder="https://"
              value={form.buttonUrl}
              onChange={(e) => set({ buttonUrl: e.target.value })}
            />
          )}
        </Field>
      )}
    </div>
  );
}
