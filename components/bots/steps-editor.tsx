"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import type { Step } from "@/lib/client/bots-types";
import type { AdminMember, Channel } from "@/lib/client/settings-types";
import { AddStepMenu } from "./add-step-menu";
import { STEP_LABEL } from "./bot-format";
import type { StepField } from "./bot-form-errors";
import { StepList } from "./step-tree";
import { focusKey, StepsContext, type StepChange, type StepsContextValue } from "./steps-context";
import {
  canAdd,
  freshId,
  insertStep,
  newStep,
  placeOf,
  removeStep,
  stepAt,
  stepNumber,
  type StepPath,
} from "./tree-ops";

/**
 * The bot's steps, edited as a tree from the keyboard. After an action the focus goes where the operator will want
 * it (a new step's first field, the moved step's button, the neighbour of a deleted step) and the outcome is
 * announced; a deletion can be undone.
 */
export function StepsEditor({
  steps,
  onChange,
  errors,
  stepsError,
  operators,
  channels,
}: {
  steps: Step[];
  /** `touched`: the step (or "steps", the tree's shape) whose errors the change answers. */
  onChange: (next: Step[], touched: string | undefined) => void;
  errors: Record<string, Record<StepField, string>>;
  /** An error about the steps as a whole. */
  stepsError: string | null;
  operators: AdminMember[] | undefined;
  channels: Channel[] | undefined;
}) {
  const root = useRef<HTMLDivElement>(null);
  const [focus, setFocus] = useState<string[] | null>(null);
  const [said, say] = useState("");
  const [undo, setUndo] = useState<{ steps: Step[]; id: string; text: string } | null>(null);

  useEffect(() => {
    if (!focus) return;
    for (const key of focus) {
      const el = root.current?.querySelector<HTMLElement>(`[data-focus="${CSS.escape(key)}"]`);
      if (el && !(el instanceof HTMLButtonElement && el.disabled)) {
        el.focus();
        break;
      }
    }
    setFocus(null);
  }, [focus, steps]);

  const value = useMemo<StepsContextValue>(() => {
    const change = (next: Step[], how: StepChange = {}) => {
      onChange(next, how.touched);
      if (how.focus) setFocus(how.focus);
      if (how.say) say(how.say);
      // Any later edit would be lost by an undo to the tree before the deletion.
      setUndo(null);
    };
    const remove = (path: StepPath) => {
      const gone = stepAt(steps, path);
      const { list, index } = placeOf(path);
      const next = removeStep(steps, path);
      const after = stepAt(next, path) ?? stepAt(next, [...list, index - 1]);
      const parent = list.length ? stepAt(next, list.slice(0, -3)) : undefined;
      const text = `Step ${stepNumber(path)} (${gone ? STEP_LABEL[gone.type] : "step"}) deleted.`;
      onChange(next, "steps");
      setFocus(
        after?.id
          ? [focusKey(after.id, "card")]
          : parent?.id
            ? [focusKey(parent.id, `add-to-${String(list[list.length - 2])}`)]
            : ["top:add"],
      );
      say(text);
      if (gone?.id) setUndo({ steps, id: gone.id, text });
    };
    return { steps, errors, operators, channels, change, remove };
  }, [steps, errors, operators, channels, onChange]);

  const addFirst = (type: Step["type"]) => {
    const fresh = freshId(steps);
    value.change(insertStep(steps, [], 0, newStep(type, fresh)).steps, {
      touched: "steps",
      focus: [focusKey(fresh, "first"), focusKey(fresh, "card")],
      say: `${STEP_LABEL[type]} step added as step 1.`,
    });
  };

  return (
    <StepsContext value={value}>
      <div ref={root} className="space-y-3">
        <p aria-live="polite" className="sr-only">
          {said}
        </p>
        {stepsError && (
          <p role="alert" className="text-sm text-red-700" data-invalid="true" tabIndex={-1}>
            {stepsError}
          </p>
        )}
        {undo && (
          <div className="flex items-center gap-3 rounded-lg bg-slate-800 px-3 py-2 text-sm text-white">
            <span>{undo.text}</span>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => {
                onChange(undo.steps, "steps");
                setFocus([focusKey(undo.id, "card")]);
                say("Step restored.");
                setUndo(null);
              }}
            >
              Undo
            </Button>
          </div>
        )}
        {steps.length === 0 && (
          <p className="text-sm text-slate-600">No steps yet: a bot needs at least one.</p>
        )}
        <StepList list={[]} steps={steps} label="Steps" />
        {steps.length === 0 && (
          <AddStepMenu
            label="Add first step"
            text="Add first step"
            focus="top:add"
            allowed={(t) => canAdd(steps, [], t)}
            onAdd={addFirst}
          />
        )}
      </div>
    </StepsContext>
  );
}
