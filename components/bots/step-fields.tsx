"use client";

import { Select, TextArea } from "@/components/messages/controls";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { cleanUserText } from "@/components/ui/user-text";
import type { Step } from "@/lib/client/bots-types";
import { focusKey, useSteps } from "./steps-context";
import { stepNumber, updateStep, type StepPath } from "./tree-ops";

/** The fields of one step, edited in place; each label names its step for screen readers ("Text of step 2"). */

const SYSTEM_PROPS = [
  { value: "$email", label: "Email address" },
  { value: "$phone", label: "Phone number" },
  { value: "$name", label: "Name" },
] as const;
const CUSTOM = "custom";

export function StepFields({ step, path }: { step: Step; path: StepPath }) {
  const { steps, errors, change } = useSteps();
  const num = stepNumber(path);
  const err = errors[step.id ?? ""] ?? {};
  const first = step.id === undefined ? undefined : focusKey(step.id, "first");
  const set = (fn: (s: Step) => Step) => change(updateStep(steps, path, fn), { touched: step.id });
  const label = (text: string) => (
    <>
      {text}
      <span className="sr-only"> of step {num}</span>
    </>
  );
  const body = (text: string, optional = false) => (
    <Field
      label={label(text)}
      hint={optional ? "Optional: said before the bot ends." : undefined}
      error={err.body}
    >
      {(control) => (
        <TextArea
          control={control}
          data-focus={first}
          rows={2}
          maxLength={5000}
          value={("body" in step ? step.body : undefined) ?? ""}
          onChange={(e) => set((s) => ("body" in s ? { ...s, body: e.target.value } : s))}
        />
      )}
    </Field>
  );
  const setProp = (prop: string) => set((s) => (s.type === "ask" ? { ...s, prop } : s));

  switch (step.type) {
    case "text":
      return body("Text");
    case "buttons":
      return body("Question");
    case "handover":
    case "close":
      return body("Last message", true);
    case "ask": {
      const system = SYSTEM_PROPS.some((p) => p.value === step.prop);
      return (
        <>
          {body("Question")}
          <div className="flex flex-wrap gap-3">
            <Field label={label("Saved as")} className="w-56" error={system ? err.prop : undefined}>
              {(control) => (
                <Select
                  control={control}
                  value={system ? step.prop : CUSTOM}
                  onChange={(e) => setProp(e.target.value === CUSTOM ? "" : e.target.value)}
                >
                  {SYSTEM_PROPS.map((p) => (
                    <option key={p.value} value={p.value}>
                      {p.label}
                    </option>
                  ))}
                  <option value={CUSTOM}>Another property…</option>
                </Select>
              )}
            </Field>
            {!system && (
              <Field label={label("Property name")} className="w-56" error={err.prop}>
                {(control) => (
                  <Input
                    {...control}
                    value={step.prop}
                    maxLength={64}
                    autoComplete="off"
                    spellCheck={false}
                    placeholder="company"
                    onChange={(e) => setProp(e.target.value)}
                  />
                )}
              </Field>
            )}
          </div>
          <p className="text-xs text-slate-600">
            {step.prop === "$email"
              ? "The visitor is asked again until the answer is an email address."
              : step.prop === "$phone"
                ? "The visitor is asked again until the answer is a phone number."
                : "Any answer of up to 1,000 characters is saved on the user."}
          </p>
        </>
      );
    }
    case "tag":
      return (
        <div className="flex flex-wrap gap-3">
          <Field label={label("Tag")} className="w-56" error={err.tag}>
            {(control) => (
              <Input
                {...control}
                data-focus={first}
                value={step.tag}
                maxLength={255}
                autoComplete="off"
                onChange={(e) => set((s) => (s.type === "tag" ? { ...s, tag: e.target.value } : s))}
              />
            )}
          </Field>
          <Field label={label("On")} className="w-56" error={err.target}>
            {(control) => (
              <Select
                control={control}
                value={step.target}
                onChange={(e) => {
                  const target = e.target.value === "conversation" ? "conversation" : "user";
                  set((s) => (s.type === "tag" ? { ...s, target } : s));
                }}
              >
                <option value="user">The user</option>
                <option value="conversation">The conversation</option>
              </Select>
            )}
          </Field>
        </div>
      );
    case "assign":
      return <AssignField step={step} num={num} error={err.assign} first={first} set={set} />;
  }
}

function AssignField({
  step,
  num,
  error,
  first,
  set,
}: {
  step: Extract<Step, { type: "assign" }>;
  num: string;
  error: string | undefined;
  first: string | undefined;
  set: (fn: (s: Step) => Step) => void;
}) {
  const { operators, channels } = useSteps();
  const value =
    step.admin !== undefined
      ? `admin:${step.admin}`
      : step.channel !== undefined
        ? `channel:${step.channel}`
        : "";
  const known = [
    ...(operators ?? []).map((a) => `admin:${a.id}`),
    ...(channels ?? []).map((c) => `channel:${c.id}`),
  ];
  const choose = (v: string) => {
    const [kind, id] = v.split(":");
    if (!id) return;
    // Rebuilt rather than patched: an assign step names an operator or a channel, never both.
    set((s) =>
      s.type !== "assign"
        ? s
        : kind === "admin"
          ? { id: s.id, type: "assign", admin: Number(id) }
          : { id: s.id, type: "assign", channel: Number(id) },
    );
  };
  return (
    <Field
      label={
        <>
          Assign to<span className="sr-only"> (step {num})</span>
        </>
      }
      className="max-w-md"
      hint="An operator, or a channel (its routing picks the operator at hand-over)."
      error={error}
    >
      {(control) => (
        <Select control={control} data-focus={first} value={value} onChange={(e) => choose(e.target.value)}>
          {value === "" && <option value="">Choose an operator or a channel</option>}
          {value !== "" && !known.includes(value) && (
            <option value={value}>{value.replace(":", " ").replace("admin", "operator")}</option>
          )}
          <optgroup label="Operators">
            {operators?.map((a) => (
              <option key={String(a.id)} value={`admin:${a.id}`}>
                {cleanUserText(a.name)} ({a.email})
              </option>
            ))}
          </optgroup>
          <optgroup label="Channels">
            {channels?.map((c) => (
              <option key={String(c.id)} value={`channel:${c.id}`}>
                {cleanUserText(c.name)}
              </option>
            ))}
          </optgroup>
        </Select>
      )}
    </Field>
  );
}
