"use client";

import { useId } from "react";
import { AudienceFields } from "@/components/leads/audience-fields";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { Message } from "@/lib/client/messages-types";
import { MESSAGE_EVENTS, messageEventName } from "@/lib/messages/schemas";
import { SESSION_START_EVENT } from "@/lib/user-model/presence-state";
import { Check, Section, Select } from "./controls";
import type { FieldsProps } from "./message-content-fields";
import { isMessageEvent, PAGE_VIEW, type MessageForm } from "./message-form-state";

const SUGGESTED_EVENTS = [PAGE_VIEW, SESSION_START_EVENT, ...MESSAGE_EVENTS.map(messageEventName)];

/** When the message goes out: its trigger and delay, to whom, how often, when, and what counts as its goal. */
export function MessageRulesFields({
  appId,
  form,
  set,
  errors,
  chains,
}: FieldsProps & {
  appId: string;
  /** The messages whose events may trigger this one. */
  chains: Pick<Message, "id" | "name">[];
}) {
  const base = useId();
  const eventsId = `${base}-events`;
  const num = "w-32";
  return (
    <>
      <Section legend="Trigger">
        <datalist id={eventsId}>
          {SUGGESTED_EVENTS.map((e) => (
            <option key={e} value={e} />
          ))}
        </datalist>
        <Field
          label="Event"
          hint="$page_view, $session_start (a visit after 30 minutes away), an event your site tracks, or a message's event ($message_read…) to chain messages."
          error={errors.event}
        >
          {(control) => (
            <Input
              {...control}
              list={eventsId}
              value={form.event}
              maxLength={255}
              autoComplete="off"
              onChange={(e) => set({ event: e.target.value })}
            />
          )}
        </Field>
        {form.event.trim() === PAGE_VIEW && (
          <Field
            label="Page URL pattern"
            hint="* matches any characters, case-insensitive; empty: any page."
            error={errors.url}
          >
            {(control) => (
              <Input
                {...control}
                value={form.url}
                placeholder="https://example.com/pricing*"
                maxLength={2048}
                onChange={(e) => set({ url: e.target.value })}
              />
            )}
          </Field>
        )}
        {isMessageEvent(form.event) && (
          <Field label="Of the message" error={errors.triggerMessage}>
            {(control) => (
              <Select
                control={control}
                value={form.triggerMessage}
                onChange={(e) => set({ triggerMessage: e.target.value })}
              >
                <option value="">Any message</option>
                {chains.map((m) => (
                  <option key={String(m.id)} value={String(m.id)}>
                    {m.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        )}
        <Field label="Delay (seconds)" hint="Between the event and the send." error={errors.timeout}>
          {(control) => (
            <Input
              {...control}
              className={num}
              inputMode="numeric"
              value={form.timeout}
              onChange={(e) => set({ timeout: e.target.value })}
            />
          )}
        </Field>
        <Field
          label="When the delay ends"
          hint="With a delay: time on the page, or time on the site."
          error={errors.stay}
        >
          {(control) => (
            <Select
              control={control}
              value={form.stay}
              onChange={(e) => set({ stay: e.target.value as MessageForm["stay"] })}
            >
              <option value="">Send wherever the visitor is</option>
              {form.event.trim() === PAGE_VIEW && (
                <option value="page">Send only if still on that page</option>
              )}
              <option value="site">Send only if still on the site</option>
            </Select>
          )}
        </Field>
      </Section>

      <Section legend="Audience">
        <AudienceFields
          appId={appId}
          value={form.audience}
          onChange={(audience) => set({ audience })}
          error={errors.audience}
          note={{
            some: "Only users who match these conditions when it is sent.",
            none: "No condition: everyone who does the trigger.",
          }}
        />
        <Field
          label="Control group (%)"
          hint="Held back from the message (0–50), to measure the goal's lift."
          error={errors.controlPercent}
        >
          {(control) => (
            <Input
              {...control}
              className={num}
              inputMode="numeric"
              value={form.controlPercent}
              onChange={(e) => set({ controlPercent: e.target.value })}
            />
          )}
        </Field>
      </Section>

      <Section legend="Frequency and schedule">
        <Check
          label="Send again"
          hint="Otherwise each user gets it once."
          checked={form.again}
          onChange={(e) => set({ again: e.target.checked })}
        />
        {form.again && (
          <Field label="Again after (days)" error={errors.days}>
            {(control) => (
              <Input
                {...control}
                className={num}
                inputMode="numeric"
                value={form.days}
                onChange={(e) => set({ days: e.target.value })}
              />
            )}
          </Field>
        )}
        <Check
          label="Only during office hours"
          hint="Outside them it waits until the app opens (Settings → Office hours)."
          checked={form.officeHours}
          onChange={(e) => set({ officeHours: e.target.checked })}
        />
        <Check
          label="Only between set times"
          hint="In the app's time zone; otherwise it waits for the start."
          checked={form.window}
          onChange={(e) => set({ window: e.target.checked })}
        />
        {form.window && (
          <div className="flex flex-wrap gap-4">
            <Field label="From" error={errors.window}>
              {(control) => (
                <Input
                  {...control}
                  type="time"
                  className="w-36"
                  value={form.windowFrom}
                  onChange={(e) => set({ windowFrom: e.target.value })}
                />
              )}
            </Field>
            <Field label="To">
              {(control) => (
                <Input
                  {...control}
                  type="time"
                  className="w-36"
                  value={form.windowTo}
                  onChange={(e) => set({ windowTo: e.target.value })}
                />
              )}
            </Field>
          </div>
        )}
      </Section>

      <Section legend="Goal">
        <Check
          label="Track a goal"
          hint="An event that counts as success when it follows the trigger."
          checked={form.goal}
          onChange={(e) => set({ goal: e.target.checked })}
        />
        {form.goal && (
          <>
            <Field label="Goal event" error={errors.goalEvent}>
              {(control) => (
                <Input
                  {...control}
                  value={form.goalEvent}
                  maxLength={255}
                  autoComplete="off"
                  onChange={(e) => set({ goalEvent: e.target.value })}
                />
              )}
            </Field>
            <Field label="Within (hours)" error={errors.goalHours}>
              {(control) => (
                <Input
                  {...control}
                  className={num}
                  inputMode="numeric"
                  value={form.goalHours}
                  onChange={(e) => set({ goalHours: e.target.value })}
                />
              )}
            </Field>
            <Check
              label="Stop when the goal is reached first"
              hint="A goal event before the send cancels it."
              checked={form.goalStop}
              onChange={(e) => set({ goalStop: e.target.checked })}
            />
          </>
        )}
      </Section>
    </>
  );
}
