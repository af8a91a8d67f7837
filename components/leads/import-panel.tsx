"use client";

import { useId, useState } from "react";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { formatCount } from "@/lib/client/format";
import { useImportJob } from "@/lib/client/use-import-job";
import { useImportUsers } from "@/lib/client/use-import-users";
import { controlClass } from "./condition-row";

const SHOWN_ERRORS = 100;

/** CSV import: upload, a progress bar that follows the job, then the rows that failed. */
export function ImportPanel({ appId, onShowTag }: { appId: string; onShowTag: (tag: string) => void }) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [merge, setMerge] = useState<"$email" | "$user_id">("$email");
  const [tag, setTag] = useState("");
  const start = useImportUsers(appId);
  const jobId = start.data ? String(start.data.id) : null;
  const job = useImportJob(jobId).data ?? start.data;
  const done = job?.status === "done";
  const pct = !job
    ? 0
    : done
      ? 100
      : job.total_bytes
        ? Math.floor((job.processed_bytes / job.total_bytes) * 100)
        : 0;
  const usedTag = start.variables?.tags[0];

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3">
      <h2 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
        Import from CSV
      </h2>
      <form
        className="space-y-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (file) start.mutate({ file, mergeField: merge, tags: tag.trim() ? [tag.trim()] : [] });
        }}
      >
        <label htmlFor={`${id}-file`} className="block text-sm text-slate-700">
          CSV file (header row of props: <code>$email</code>, <code>$name</code>, custom names…)
        </label>
        <input
          id={`${id}-file`}
          type="file"
          accept=".csv,text/csv"
          className="block w-full text-sm file:mr-2 file:rounded-md file:border-0 file:bg-slate-100 file:px-2 file:py-1 focus-visible:outline-2 focus-visible:outline-brand-600"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        <div className="flex flex-wrap gap-2">
          <label className="inline-flex items-center gap-1.5 text-sm text-slate-700">
            Match by
            <select
              className={controlClass}
              value={merge}
              onChange={(e) => setMerge(e.target.value as "$email" | "$user_id")}
            >
              <option value="$email">email</option>
              <option value="$user_id">user ID</option>
            </select>
          </label>
          <Input
            aria-label="Tag imported leads"
            placeholder="Tag (optional)"
            className="h-9 w-40"
            value={tag}
            maxLength={255}
            onChange={(e) => setTag(e.target.value)}
          />
          <Button type="submit" size="sm" disabled={!file} loading={start.isPending}>
            Import
          </Button>
        </div>
      </form>
      <ErrorAlert error={start.error} title="The import did not start" />
      {job && (
        <div className="space-y-2" aria-live="polite">
          <div
            role="progressbar"
            aria-label="Import progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={pct}
            className="h-2 overflow-hidden rounded-full bg-slate-200"
          >
            <div className="h-full bg-brand-600 transition-all" style={{ width: `${pct}%` }} />
          </div>
          <p className="text-sm text-slate-700" data-testid="import-status">
            {job.status === "failed"
              ? `Import failed: ${job.error ?? "unknown error"}`
              : `${pct}% · ${formatCount(job.rows_processed)} rows read, ${formatCount(job.rows_imported)} imported, ${formatCount(job.rows_failed)} failed${done ? " · done" : ""}`}
          </p>
          {done && usedTag && (
            <Button size="sm" variant="secondary" onClick={() => onShowTag(usedTag)}>
              Show leads tagged “{usedTag}”
            </Button>
          )}
          {job.row_errors.length > 0 && (
            <div>
              <h3 className="text-sm font-medium text-slate-900">Rows not imported</h3>
              <ul className="mt-1 max-h-48 overflow-auto text-sm text-red-800" aria-label="Row errors">
                {job.row_errors.slice(0, SHOWN_ERRORS).map((e) => (
                  <li key={`${e.row}-${e.error}`}>
                    Line {e.row}: {e.error}
                  </li>
                ))}
              </ul>
              {job.rows_failed > SHOWN_ERRORS && (
                <p className="text-sm text-slate-600">
                  …and {formatCount(job.rows_failed - SHOWN_ERRORS)} more.
                </p>
              )}
            </div>
          )}
        </div>
      )}
    </section>
  );
}
