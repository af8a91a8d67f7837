"use client";

import { useEffect, useState } from "react";
import type { BulkAction, BulkJob } from "@/lib/bulk/schemas";
import { Button } from "@/components/ui/button";
import type { ListParams } from "@/lib/client/inbox/filters";
import { useBulkJob } from "@/lib/client/inbox/use-bulk-job";
import { useStartBulkJob, type BulkInput } from "@/lib/client/inbox/use-start-bulk-job";
import { plural } from "@/lib/client/format";
import type { AdminMember } from "@/lib/client/settings-types";
import type { BulkSelection } from "./use-bulk-selection";

const SNOOZES: { label: string; seconds: number }[] = [
  { label: "1 hour", seconds: 3600 },
  { label: "4 hours", seconds: 4 * 3600 },
  { label: "1 day", seconds: 24 * 3600 },
  { label: "1 week", seconds: 7 * 24 * 3600 },
];

const DONE: Record<BulkAction, string> = {
  assign: "Assigned",
  close: "Closed",
  open: "Reopened",
  snooze: "Snoozed",
  tag: "Tagged",
  untag: "Untagged",
};

const conversations = (n: number) => `${n} ${plural(n, "conversation")}`;

/** "Closed 57 conversations; 2 failed: …" */
export function describeBulkResult(job: BulkJob): string {
  if (job.status === "failed" && job.error) return `The job stopped after ${job.processed}: ${job.error}`;
  const head = `${DONE[job.action]} ${conversations(job.succeeded)}`;
  if (!job.failed) return `${head}.`;
  const shown = job.errors.slice(0, 3).map((e) => e.error);
  const more = job.failed > shown.length ? ` and ${job.failed - shown.length} more` : "";
  return `${head}; ${job.failed} failed: ${shown.join(" ")}${more}`;
}

const control =
  "h-8 rounded-md bg-white px-2 text-sm text-slate-800 ring-1 ring-slate-300 ring-inset focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none";

interface PickMenuProps {
  label: string;
  /** The empty first option, shown until one is picked. */
  prompt: string;
  disabled: boolean;
  options: { value: string; label: string }[];
  onPick: (value: string) => void;
}

/** A select that acts once an option is picked and falls back to its prompt, so it reads as a menu. */
function PickMenu({ label, prompt, disabled, options, onPick }: PickMenuProps) {
  return (
    <select
      className={control}
      aria-label={label}
      disabled={disabled}
      value=""
      onChange={(e) => {
        if (e.target.value) onPick(e.target.value);
      }}
    >
      <option value="">{prompt}</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

interface BarProps {
  appId: string;
  meId: string;
  admins: AdminMember[];
  selection: BulkSelection;
  params: ListParams;
  /** How many the filter matches, when the counters tell (the "all matching" selection). */
  matching: number | undefined;
}

/** What to do with the selected conversations, then the job's progress and its result. */
export function BulkActionBar({ appId, meId, admins, selection, params, matching }: BarProps) {
  const start = useStartBulkJob(appId);
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useBulkJob(appId, meId, jobId).data;
  const running = !!job && (job.status === "pending" || job.status === "running");
  const [tag, setTag] = useState("");
  const { clear } = selection;
  const finished = job?.status === "done";
  useEffect(() => {
    if (finished) clear();
  }, [finished, clear]);

  const run = (input: Omit<BulkInput, "selection">) =>
    start.mutate(
      {
        ...input,
        selection: selection.allMatching ? { filter: params } : { ids: [...selection.ids] },
      },
      { onSuccess: (j) => setJobId(String(j.id)) },
    );

  const count = selection.allMatching ? (matching ?? selection.count) : selection.count;
  const busy = running || start.isPending;
  if (!selection.count && !job && !start.isError) return null;
  return (
    <div
      role="region"
      aria-label="Bulk actions"
      className="flex flex-col gap-2 border-b border-slate-200 bg-brand-50 px-4 py-2 text-sm"
      data-testid="bulk-bar"
    >
      {selection.count > 0 && (
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-slate-900" data-testid="bulk-count">
            {selection.allMatching && matching === undefined ? "All matching" : conversations(count)} selected
          </span>
          <PickMenu
            label="Assign selected to"
            prompt="Assign…"
            disabled={busy}
            options={[
              { value: "none", label: "Unassigned" },
              ...admins.map((a) => ({
                value: String(a.id),
                label: String(a.id) === meId ? `${a.name} (you)` : a.name,
              })),
            ]}
            onPick={(v) => run({ action: "assign", assignee: v === "none" ? null : v })}
          />
          <Button size="sm" variant="secondary" disabled={busy} onClick={() => run({ action: "close" })}>
            Close
          </Button>
          <PickMenu
            label="Snooze selected for"
            prompt="Snooze…"
            disabled={busy}
            options={SNOOZES.map((s) => ({ value: String(s.seconds), label: s.label }))}
            onPick={(v) => run({ action: "snooze", duration: Number(v) })}
          />
          <form
            className="flex items-center gap-1"
            onSubmit={(e) => {
              e.preventDefault();
              const t = tag.trim();
              if (t) run({ action: "tag", tag: t });
            }}
          >
            <input
              className={`${control} w-28`}
              aria-label="Tag to add to selected"
              placeholder="Tag"
              value={tag}
              maxLength={255}
              onChange={(e) => setTag(e.target.value.replace(/,/g, ""))}
            />
            <Button size="sm" variant="secondary" type="submit" disabled={busy || !tag.trim()}>
              Tag
            </Button>
          </form>
          <Button size="sm" variant="ghost" disabled={busy} onClick={selection.clear}>
            Clear selection
          </Button>
        </div>
      )}
      {running && job && (
        <div className="flex items-center gap-2" data-testid="bulk-progress">
          <div
            role="progressbar"
            aria-label="Bulk action progress"
            aria-valuemin={0}
            aria-valuemax={job.total}
            aria-valuenow={job.processed}
            className="h-2 flex-1 overflow-hidden rounded bg-white ring-1 ring-slate-300"
          >
            <div
              className="h-full bg-brand-600 transition-[width]"
              style={{ width: `${job.total ? (100 * job.processed) / job.total : 0}%` }}
            />
          </div>
          <span className="text-xs text-slate-700 tabular-nums">
            {job.processed} / {job.total}
          </span>
        </div>
      )}
      {job && !running && (
        <p
          role="status"
          data-testid="bulk-result"
          className={job.failed || job.error ? "text-red-800" : "text-slate-800"}
        >
          {describeBulkResult(job)}{" "}
          <button type="button" className="underline" onClick={() => setJobId(null)}>
            Dismiss
          </button>
        </p>
      )}
      {start.isError && (
        <p role="alert" className="text-red-800">
          Could not start: {start.error.message}
        </p>
      )}
    </div>
  );
}
