"use client";

import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from "react";
import { Avatar } from "@/components/panel/avatar";
import { Button } from "@/components/ui/button";
import { cleanUserText, UserText } from "@/components/ui/user-text";
import type { Step } from "@/lib/client/bots-types";
import type { AdminMember, Channel } from "@/lib/client/settings-types";
import { END_LINE, runSim, type SimInput, type SimNames, type SimWait } from "./bot-sim";

const PLACEHOLDER: Record<"email" | "phone" | "text" | "buttons", string> = {
  email: "Type an email address…",
  phone: "Type a phone number…",
  text: "Type an answer…",
  buttons: "Or type an answer…",
};
const inputMode = (w: SimWait | null) => (w?.type === "ask" && w.input !== "text" ? w.input : "text");

/**
 * Test mode: the bot run in the browser over the editor's steps as they are (unsaved), drawn like the messenger's
 * conversation. Nothing is sent. A run follows the editor until the visitor first answers; from then on it keeps
 * the steps it started with (as a conversation does on the server) until Restart.
 */
export function TestPanel({
  steps,
  sender,
  accent,
  operators,
  channels,
}: {
  steps: Step[];
  sender: { name: string; avatar?: string };
  accent: string | undefined;
  operators: AdminMember[] | undefined;
  channels: Channel[] | undefined;
}) {
  const base = useId();
  const panel = useRef<HTMLElement>(null);
  const [run, setRun] = useState<{ steps: Step[]; inputs: SimInput[] } | null>(null);
  const [draft, setDraft] = useState("");
  // Bumped by each action: the control the run now waits on takes the focus.
  const [acted, setActed] = useState(0);
  const color = accent && /^#[0-9a-f]{6}$/i.test(accent) ? accent : "#2563eb";

  const names = useMemo<SimNames>(
    () => ({
      operator: (id) => cleanUserText(operators?.find((a) => String(a.id) === id)?.name ?? `operator ${id}`),
      channel: (id) => cleanUserText(channels?.find((c) => String(c.id) === id)?.name ?? `channel ${id}`),
    }),
    [operators, channels],
  );
  const started = run?.inputs.length ? run : null;
  const ran = started ? started.steps : steps;
  const sim = useMemo(() => runSim(ran, started?.inputs ?? [], names), [ran, started, names]);
  const stale = started !== null && JSON.stringify(started.steps) !== JSON.stringify(steps);

  useEffect(() => {
    if (acted) panel.current?.querySelector<HTMLElement>("[data-next]")?.focus();
  }, [acted]);

  const act = (input: SimInput) => {
    setRun({ steps: ran, inputs: [...(started?.inputs ?? []), input] });
    setDraft("");
    setActed((n) => n + 1);
  };
  const send = (e: FormEvent) => {
    e.preventDefault();
    if (draft.trim()) act({ text: draft });
  };
  const restart = () => {
    setRun(null);
    setDraft("");
    setActed((n) => n + 1);
  };

  const wait = sim.wait;
  const lastBot = sim.lines.findLastIndex((l) => l.kind === "bot");
  return (
    <section
      ref={panel}
      aria-labelledby={`${base}-title`}
      data-testid="bot-test"
      className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm"
    >
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 id={`${base}-title`} className="text-sm font-semibold text-slate-900">
          Test mode
        </h2>
        <Button size="sm" variant="secondary" onClick={restart} data-next={sim.end ? true : undefined}>
          Restart
        </Button>
      </div>
      <p className="mb-3 text-xs text-slate-600">
        Runs the steps as they are now, unsaved, in this browser: nothing is sent and no user is changed.
      </p>
      {stale && (
        <p className="mb-2 rounded-md bg-amber-50 px-2 py-1.5 text-xs text-amber-900">
          The steps changed since this run started: Restart to test them.
        </p>
      )}
      <div className="overflow-hidden rounded-xl border border-slate-200 bg-[#f6f7f9]">
        <div className="px-3 py-2 text-sm font-semibold text-white" style={{ backgroundColor: color }}>
          <UserText>{sender.name}</UserText>
        </div>
        <ol
          role="log"
          aria-label="Test conversation"
          className="flex max-h-[28rem] flex-col gap-1.5 overflow-y-auto p-3"
        >
          {sim.lines.map((l, i) =>
            l.kind === "event" ? (
              <li key={i} className="self-center px-2 text-center text-xs text-slate-500 italic">
                {l.text}
              </li>
            ) : l.kind === "visitor" ? (
              <li
                key={i}
                className="max-w-[82%] self-end rounded-2xl rounded-br-sm px-3 py-2 text-sm break-words whitespace-pre-wrap text-white"
                style={{ backgroundColor: color }}
              >
                <span className="sr-only">You: </span>
                {l.text}
              </li>
            ) : (
              <li key={i} className="flex max-w-[82%] flex-col items-start">
                {sim.lines[i - 1]?.kind !== "bot" && (
                  <span className="mt-1 mb-0.5 flex items-center gap-1.5 text-xs text-slate-600">
                    <Avatar name={sender.name} src={sender.avatar} className="size-5" />
                    <UserText>{sender.name}</UserText>
                  </span>
                )}
                <span className="rounded-2xl rounded-bl-sm border border-slate-200 bg-white px-3 py-2 text-sm break-words whitespace-pre-wrap text-slate-900">
                  {l.text || " "}
                </span>
                {i === lastBot && wait?.type === "buttons" && (
                  <div role="group" aria-label="Quick replies" className="mt-1.5 flex flex-wrap gap-1.5">
                    {wait.labels.map((label, k) => (
                      <button
                        key={k}
                        type="button"
                        data-next={k === 0 ? true : undefined}
                        onClick={() => act({ button: k })}
                        className="rounded-full border bg-white px-3 py-1 text-sm focus-visible:outline-2 focus-visible:outline-offset-1"
                        style={{ borderColor: color, color, outlineColor: color }}
                      >
                        {label || `Button ${k + 1}`}
                      </button>
                    ))}
                  </div>
                )}
              </li>
            ),
          )}
          {sim.end && (
            <li className="mt-2 self-stretch border-t border-slate-300 pt-2 text-center text-xs font-medium text-slate-700">
              {END_LINE[sim.end]}
            </li>
          )}
        </ol>
        {sim.problem && (
          <p role="alert" className="px-3 pb-3 text-sm text-red-700">
            The bot cannot run: {sim.problem}.
          </p>
        )}
        <form onSubmit={send} noValidate className="flex gap-2 border-t border-slate-200 bg-white p-2">
          <label htmlFor={`${base}-answer`} className="sr-only">
            Answer as the visitor
          </label>
          <input
            id={`${base}-answer`}
            type="text"
            inputMode={inputMode(wait) === "phone" ? "tel" : inputMode(wait) === "email" ? "email" : "text"}
            autoComplete="off"
            disabled={!wait}
            data-next={wait?.type === "ask" ? true : undefined}
            value={draft}
            placeholder={wait ? PLACEHOLDER[wait.type === "ask" ? wait.input : "buttons"] : "The bot is done"}
            onChange={(e) => setDraft(e.target.value)}
            className="h-9 min-w-0 flex-1 rounded-md border border-slate-300 px-2 text-sm focus:outline-2 focus:outline-brand-600 disabled:bg-slate-50"
          />
          <Button type="submit" size="sm" disabled={!wait}>
            Send
          </Button>
        </form>
      </div>
    </section>
  );
}
