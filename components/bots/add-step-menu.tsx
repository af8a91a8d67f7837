"use client";

import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import type { StepType } from "@/lib/client/bots-types";
import { STEP_HINT, STEP_LABEL, STEP_TYPES } from "./bot-format";

/**
 * "Add step": a disclosure button that shows a button per step type. Opening it puts the focus on the first type;
 * Escape or Cancel closes it and gives the focus back. A type the tree's limits refuse is disabled.
 */
export function AddStepMenu({
  label,
  text = "Add step",
  focus,
  allowed,
  onAdd,
}: {
  /** The accessible name: which place the step goes to ("Add step after step 2"). */
  label: string;
  /** The visible text; the accessible name starts with it. */
  text?: string;
  /** The toggle's `data-focus` key, so the editor can come back to it. */
  focus?: string;
  allowed: (type: StepType) => boolean;
  onAdd: (type: StepType) => void;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLButtonElement>("button:not(:disabled)")?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== "Escape") return;
    e.preventDefault();
    e.stopPropagation();
    close();
  };

  return (
    <div className="mt-1">
      <Button
        ref={toggle}
        size="sm"
        variant="ghost"
        className="text-brand-700"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={label}
        data-focus={focus}
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">+</span> {text}
      </Button>
      {open && (
        <div
          ref={menu}
          id={id}
          role="group"
          aria-label={`Type of the new step (${label.toLowerCase()})`}
          onKeyDown={onKeyDown}
          className="mt-1 grid gap-1.5 rounded-lg border border-slate-200 bg-white p-2 shadow-sm sm:grid-cols-2"
        >
          {STEP_TYPES.map((t) => (
            <button
              key={t}
              type="button"
              disabled={!allowed(t)}
              onClick={() => {
                setOpen(false);
                onAdd(t);
              }}
              className="rounded-md px-2.5 py-1.5 text-left text-sm ring-1 ring-slate-200 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:text-slate-400"
            >
              <span className="block font-medium">{STEP_LABEL[t]}</span>
              <span className="block text-xs text-slate-600">{STEP_HINT[t]}</span>
            </button>
          ))}
          <Button size="sm" variant="ghost" onClick={close} className="justify-self-start">
            Cancel
          </Button>
        </div>
      )}
    </div>
  );
}
