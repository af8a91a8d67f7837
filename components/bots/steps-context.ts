"use client";

import { createContext, useContext } from "react";
import type { Step } from "@/lib/client/bots-types";
import type { AdminMember, Channel } from "@/lib/client/settings-types";
import type { StepField } from "./bot-form-errors";
import type { StepPath } from "./tree-ops";

export interface StepChange {
  /** The step edited, or "steps" for the tree's shape: its errors are answered. */
  touched?: string;
  /** `data-focus` keys to try in order once the tree is drawn (the first that can take the focus does). */
  focus?: string[];
  /** Announced to screen readers. */
  say?: string;
}

/** What every card of the tree reads and does; provided by StepsEditor. */
export interface StepsContextValue {
  steps: Step[];
  errors: Record<string, Record<StepField, string>>;
  operators: AdminMember[] | undefined;
  channels: Channel[] | undefined;
  change: (next: Step[], how?: StepChange) => void;
  /** Removes a step, with an undo. */
  remove: (path: StepPath) => void;
}

export const StepsContext = createContext<StepsContextValue | null>(null);

export function useSteps(): StepsContextValue {
  const ctx = useContext(StepsContext);
  if (!ctx) throw new Error("a step belongs inside <StepsEditor>");
  return ctx;
}

/** The `data-focus` key of a part of a step (`first`, `up`, `down`, `card`, `label-0`, `add-button`…). */
export const focusKey = (stepId: string, part: string) => `${stepId}:${part}`;
