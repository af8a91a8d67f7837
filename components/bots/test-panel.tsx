"use client";

import { useCallback, useId, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { cleanUserText } from "@/components/ui/user-text";
import { PreviewFrame } from "@/components/preview/preview-frame";
import type { Step } from "@/lib/client/bots-types";
import type { AdminMember, Channel } from "@/lib/client/settings-types";
import { TAG } from "@/messenger/protocol";
import {
  parseBotAnswer,
  PREVIEW_BOT_QUERY,
  type BotPreviewLine,
  type ToBotPreview,
} from "@/messenger/preview-protocol";
import { END_LINE, runSim, type Sim, type SimInput, type SimNames } from "./bot-sim";

// Served by the server in front of Next (lib/messenger/assets.ts), on the panel's origin.
const FRAME_SRC = `/messenger/frame.html?${PREVIEW_BOT_QUERY}`;

/** The run's conversation as the frame draws it: the question the bot waits on carries its buttons or field. */
function linesOf(sim: Sim): BotPreviewLine[] {
  const said = sim.lines.filter((l) => l.kind !== "event");
  return said.map((l, i): BotPreviewLine => {
    if (l.kind === "visitor") return { from: "visitor", text: l.text };
    const waits = i === said.length - 1 ? sim.wait : null;
    return {
      from: "bot",
      text: l.text,
      ...(waits?.type === "buttons" ? { buttons: waits.labels.map((b, k) => b || `Button ${k + 1}`) } : {}),
      ...(waits?.type === "ask" ? { ask: waits.input } : {}),
    };
  });
}

/**
 * Test mode: the bot run in the browser over the editor's steps as they are (unsaved), in the messenger's real
 * frame (its bot preview mode, messenger/frame/preview-bot.ts): the visitor's clicks and answers there come back
 * here and move the run. Nothing is sent. What the bot does out of the visitor's sight (tags, assignment, the
 * note) is listed beside it. A run follows the editor until the visitor first answers; from then on it keeps the
 * steps it started with (as a conversation does on the server) until Restart.
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
  const [run, setRun] = useState<{ id: number; steps: Step[]; inputs: SimInput[] }>({
    id: 0,
    steps: [],
    inputs: [],
  });

  const names = useMemo<SimNames>(
    () => ({
      operator: (id) => cleanUserText(operators?.find((a) => String(a.id) === id)?.name ?? `operator ${id}`),
      channel: (id) => cleanUserText(channels?.find((c) => String(c.id) === id)?.name ?? `channel ${id}`),
    }),
    [operators, channels],
  );
  const started = run.inputs.length > 0;
  const ran = started ? run.steps : steps;
  const sim = useMemo(() => runSim(ran, run.inputs, names), [ran, run.inputs, names]);
  const stale = started && JSON.stringify(run.steps) !== JSON.stringify(steps);

  const message = useMemo<ToBotPreview>(
    () => ({
      tag: TAG,
      type: "preview-bot",
      run: run.id,
      sender: { name: sender.name, avatar: sender.avatar ?? "" },
      lines: linesOf(sim),
      done: sim.end !== null || sim.problem !== null,
      accent: accent && /^#[0-9a-f]{6}$/i.test(accent) ? accent : null,
    }),
    [run.id, sender.name, sender.avatar, sim, accent],
  );

  const onMessage = useCallback(
    (data: unknown) => {
      const a = parseBotAnswer(data);
      if (!a) return;
      setRun((r) =>
        a.run !== r.id
          ? r
          : { id: r.id, steps: r.inputs.length ? r.steps : steps, inputs: [...r.inputs, a.input] },
      );
    },
    [steps],
  );
  const restart = () => setRun((r) => ({ id: r.id + 1, steps: [], inputs: [] }));

  const events = sim.lines.filter((l) => l.kind === "event");
  return (
    <section
      aria-labelledby={`${base}-title`}
      data-testid="bot-test"
      className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm"
    >
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 id={`${base}-title`} className="text-sm font-semibold text-slate-900">
          Test mode
        </h2>
        <Button size="sm" variant="secondary" onClick={restart}>
          Restart
        </Button>
      </div>
      <p className="mb-3 text-xs text-slate-600">
        Runs the steps as they are now, unsaved, in the messenger: answer as the visitor would. Nothing is
        sent and no user is changed.
      </p>
      {stale && (
        <p className="mb-2 rounded-md bg-amber-50 px-2 py-1.5 text-xs text-amber-900">
          The steps changed since this run started: Restart to test them.
        </p>
      )}
      <PreviewFrame
        src={FRAME_SRC}
        message={message}
        onMessage={onMessage}
        title="Test conversation in the messenger"
        className="block h-[460px] w-full rounded-xl border border-slate-200 bg-[#f6f7f9]"
      />
      {sim.problem && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          The bot cannot run: {sim.problem}.
        </p>
      )}
      <ol role="log" aria-label="What the bot did" className="mt-2 space-y-1 text-xs text-slate-600">
        {events.map((l, i) => (
          <li key={i} className="italic">
            {l.text}
          </li>
        ))}
        {sim.end && <li className="font-medium text-slate-800">{END_LINE[sim.end]}</li>}
      </ol>
    </section>
  );
}
