"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { cleanUserText, UserText } from "@/components/ui/user-text";
import { startSchema } from "@/lib/bots/steps";
import { formatCount } from "@/lib/client/format";
import type { Bot, BotStatus, BotsView } from "@/lib/client/bots-types";
import { KIND_LABEL, STATUS_LABEL, WHEN_LABEL } from "./bot-format";

const STATUS_CLASS: Record<BotStatus, string> = {
  active: "bg-emerald-50 text-emerald-800 ring-emerald-600/30",
  paused: "bg-amber-50 text-amber-900 ring-amber-600/30",
  archived: "bg-slate-100 text-slate-700 ring-slate-500/30",
};

const ACTION_VERB: Record<BotStatus, string> = { active: "Resume", paused: "Pause", archived: "Archive" };

interface RowProps {
  b: Bot;
  view: BotsView;
  error: string | undefined;
  onStatus: (status: BotStatus) => void;
}

/** One bot of the list: its name (a link to its page), kind, status, start rule, figures and actions. */
export function BotRow({ b, view, error, onStatus }: RowProps) {
  const id = String(b.id);
  const start = startSchema.safeParse(b.start);
  const f = b.figures;
  const actions: BotStatus[] =
    view === "archived" ? ["paused"] : [b.status === "active" ? "paused" : "active", "archived"];
  const num = "px-3 py-2.5 text-right tabular-nums";
  return (
    <tr data-bot-id={id} className="align-top">
      <th scope="row" className="px-3 py-2.5 text-left font-medium">
        <Link
          prefetch={false}
          href={`/bots/${id}`}
          className="text-brand-700 hover:underline focus-visible:rounded focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <UserText>{b.name}</UserText>
        </Link>
      </th>
      <td className="px-3 py-2.5 whitespace-nowrap">{KIND_LABEL[b.kind]}</td>
      <td className="px-3 py-2.5">
        <span
          className={cn(
            "inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset",
            STATUS_CLASS[b.status],
          )}
        >
          {STATUS_LABEL[b.status]}
        </span>
      </td>
      <td className="px-3 py-2.5">{start.success ? WHEN_LABEL[start.data.when] : "—"}</td>
      <td className={num}>{formatCount(f.started)}</td>
      <td className={num}>{formatCount(f.handed_over)}</td>
      <td className={num}>{formatCount(f.closed)}</td>
      <td className={num}>{formatCount(f.taken_over)}</td>
      <td className="px-3 py-2">
        <div className="flex justify-end gap-1">
          {actions.map((status, i) => {
            const verb = view === "archived" ? "Restore" : ACTION_VERB[status];
            // Keyed by place: Pause becomes Resume on the same button, which keeps the focus.
            return (
              <Button
                key={i}
                size="sm"
                variant="secondary"
                aria-label={`${verb} ${cleanUserText(b.name)}`}
                onClick={() => onStatus(status)}
              >
                {verb}
              </Button>
            );
          })}
        </div>
        {error && (
          <p role="alert" className="mt-1 text-right text-xs text-red-700">
            {error}
          </p>
        )}
      </td>
    </tr>
  );
}
