"use client";

import { useId } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { MAX_BUTTONS } from "@/lib/bots/steps";
import type { Step, StepType } from "@/lib/client/bots-types";
import { AddStepMenu } from "./add-step-menu";
import { STEP_LABEL } from "./bot-format";
import { StepFields } from "./step-fields";
import { focusKey, useSteps } from "./steps-context";
import {
  addButton,
  appendToBranch,
  branchPath,
  canAdd,
  freshId,
  insertAfter,
  moveStep,
  newStep,
  placeOf,
  removeButton,
  renameButton,
  stepNumber,
  type ButtonsStep,
  type StepPath,
} from "./tree-ops";

/**
 * The step tree as nested lists: a card per step with its fields and its actions (move, delete, add a step after),
 * and under a buttons step a branch per button with its own steps. The three render each other, hence one file.
 */
export function StepList({ list, steps, label }: { list: StepPath; steps: Step[]; label: string }) {
  if (!steps.length) return null;
  return (
    <ol aria-label={label} className="space-y-3">
      {steps.map((s, i) => (
        <StepCard key={s.id ?? i} step={s} path={[...list, i]} count={steps.length} />
      ))}
    </ol>
  );
}

function StepCard({ step, path, count }: { step: Step; path: StepPath; count: number }) {
  const { steps, errors, change, remove } = useSteps();
  const heading = useId();
  const num = stepNumber(path);
  const id = step.id ?? "";
  const general = errors[id]?.[""];
  const { list, index } = placeOf(path);
  const move = (delta: -1 | 1) => {
    const moved = moveStep(steps, path, delta);
    const dir = delta < 0 ? "up" : "down";
    change(moved.steps, {
      focus: [focusKey(id, dir), focusKey(id, delta < 0 ? "down" : "up")],
      say: `Step moved ${dir}: it is now step ${stepNumber(moved.path)}.`,
    });
  };
  const addAfter = (type: StepType) => {
    const fresh = freshId(steps);
    const added = insertAfter(steps, path, newStep(type, fresh));
    change(added.steps, {
      touched: "steps",
      focus: [focusKey(fresh, "first"), focusKey(fresh, "card")],
      say: `${STEP_LABEL[type]} step added as step ${stepNumber(added.path)}.`,
    });
  };
  return (
    <li data-step-id={id}>
      <div
        role="group"
        aria-labelledby={heading}
        tabIndex={-1}
        data-focus={focusKey(id, "card")}
        data-invalid={general ? true : undefined}
        className={cn(
          "space-y-3 rounded-lg border bg-white p-3 shadow-sm focus-visible:outline-2 focus-visible:outline-brand-600",
          general ? "border-red-300" : "border-slate-200",
        )}
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id={heading} className="text-sm font-semibold text-slate-900">
            Step {num} <span className="font-normal text-slate-600">· {STEP_LABEL[step.type]}</span>
          </h3>
          <div className="flex gap-1">
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Move step ${num} up`}
              data-focus={focusKey(id, "up")}
              disabled={index === 0}
              onClick={() => move(-1)}
            >
              Up
            </Button>
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Move step ${num} down`}
              data-focus={focusKey(id, "down")}
              disabled={index === count - 1}
              onClick={() => move(1)}
            >
              Down
            </Button>
            <Button
              size="sm"
              variant="ghost"
              className="text-red-700"
              aria-label={`Delete step ${num}`}
              onClick={() => remove(path)}
            >
              Delete
            </Button>
          </div>
        </div>
        {general && (
          <p className="text-sm text-red-700" role="alert">
            {general}
          </p>
        )}
        <StepFields step={step} path={path} />
        {step.type === "buttons" && <Branches step={step} path={path} num={num} />}
      </div>
      <AddStepMenu
        label={`Add step after step ${num}`}
        focus={focusKey(id, "add-after")}
        allowed={(t) => canAdd(steps, list, t)}
        onAdd={addAfter}
      />
    </li>
  );
}

function Branches({ step, path, num }: { step: ButtonsStep; path: StepPath; num: string }) {
  const { steps, errors, change } = useSteps();
  const id = step.id ?? "";
  const err = errors[id] ?? {};
  const add = () => {
    const added = addButton(steps, path);
    if (added.index < 0) return;
    change(added.steps, {
      touched: id,
      focus: [focusKey(id, `label-${added.index}`)],
      say: `Button ${added.index + 1} added to step ${num}.`,
    });
  };
  const drop = (j: number) =>
    change(removeButton(steps, path, j), {
      touched: id,
      focus: [focusKey(id, `label-${Math.max(0, j - 1)}`), focusKey(id, "add-button")],
      say: `Button ${j + 1} of step ${num} removed, with its steps.`,
    });
  const addTo = (j: number, type: StepType) => {
    const fresh = freshId(steps);
    const added = appendToBranch(steps, path, j, newStep(type, fresh));
    change(added.steps, {
      touched: "steps",
      focus: [focusKey(fresh, "first"), focusKey(fresh, "card")],
      say: `${STEP_LABEL[type]} step added as step ${stepNumber(added.path)}.`,
    });
  };
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-800">
        Buttons<span className="sr-only"> of step {num}</span>
      </legend>
      {err.buttons && <p className="text-sm text-red-700">{err.buttons}</p>}
      <ol className="space-y-3">
        {step.buttons.map((b, j) => {
          const name = `button ${j + 1} of step ${num}`;
          return (
            <li key={j} className="rounded-lg border-l-4 border-brand-200 bg-slate-50 py-2 pr-2 pl-3">
              <div className="flex flex-wrap items-end gap-2">
                <Field
                  label={
                    <>
                      Button {j + 1}
                      <span className="sr-only"> label of step {num}</span>
                    </>
                  }
                  className="w-64"
                  error={err[`button.${j}`]}
                >
                  {(control) => (
                    <Input
                      {...control}
                      data-focus={focusKey(id, `label-${j}`)}
                      value={b.label}
                      maxLength={60}
                      onChange={(e) => change(renameButton(steps, path, j, e.target.value), { touched: id })}
                    />
                  )}
                </Field>
                <Button
                  size="sm"
                  variant="ghost"
                  className="mb-1 text-red-700"
                  aria-label={`Remove ${name}`}
                  disabled={step.buttons.length === 1}
                  onClick={() => drop(j)}
                >
                  Remove
                </Button>
              </div>
              <p className="my-2 text-xs text-slate-600">
                {b.steps.length
                  ? "When the visitor picks it:"
                  : "No steps: picking it goes straight on to what follows this step."}
              </p>
              <StepList
                list={branchPath(path, j)}
                steps={b.steps}
                label={`Steps of ${name}${b.label ? ` (${b.label})` : ""}`}
              />
              {/* A branch with steps grows from its last step's "Add step". */}
              {b.steps.length === 0 && (
                <AddStepMenu
                  label={`Add step to ${name}`}
                  text="Add step to this button"
                  focus={focusKey(id, `add-to-${j}`)}
                  allowed={(t) => canAdd(steps, branchPath(path, j), t)}
                  onAdd={(t) => addTo(j, t)}
                />
              )}
            </li>
          );
        })}
      </ol>
      <Button
        size="sm"
        variant="secondary"
        data-focus={focusKey(id, "add-button")}
        disabled={step.buttons.length >= MAX_BUTTONS}
        aria-label={`Add button to step ${num}`}
        onClick={add}
      >
        Add button
      </Button>
      {step.buttons.length >= MAX_BUTTONS && (
        <p className="text-xs text-slate-600">A step has at most {MAX_BUTTONS} buttons.</p>
      )}
    </fieldset>
  );
}
