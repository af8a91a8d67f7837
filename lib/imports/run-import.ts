import fs from "node:fs";
import type { Db } from "../db/client";
import { coerceCustom, coerceSystem, MAX_STRING, Refused } from "../user-model/prop-values";
import { parseEventProp, systemProp, type SystemPropDef } from "../user-model/system-props";
import { applyBatch, type ImportRow, type MergeField } from "./apply-batch";
import { CsvError, parseCsv } from "./csv";
import { userIdProblem } from "../users/user-id";
import type { JobKind } from "../jobs/runner";

export const BATCH_ROWS = 1000;
/** Row errors kept on the job; past this only their number grows. */
export const MAX_ROW_ERRORS = 1000;

export const IMPORT_JOB_KIND = "import";

/** The runner's row: the import job, and the upload spooled to this machine's temporary directory. */
export interface ImportPlan {
  jobId: string;
  path: string;
  delimiter: string;
}

export const ABANDONED_ERROR =
  "the server stopped while this import was running. The rows imported before it stopped are kept; upload " +
  "the file again to import the rest (rows are merged on the merge field, so none is duplicated).";

type Column =
  { kind: "merge" } | { kind: "system"; name: string; def: SystemPropDef } | { kind: "custom"; key: string };

class HeaderError extends Error {}
/** The job reads as finished (failed from outside, or by an earlier holder): whatever this claim does, it is over. */
class Abandoned extends Error {}
/** The server is stopping: the import ends where it is, failed with the words for it. */
class Stopped extends Error {}

/**
 * The runner's kind. An import is not resumed: its upload lived in one machine's temporary directory and may be
 * gone with it, and one restarted from the top would count its rows twice. A claim after its holder's lease ran
 * out (a crash) fails it with the words for that.
 */
export const importJobKind: JobKind = {
  name: IMPORT_JOB_KIND,
  concurrency: 2,
  maxAttempts: 1,
  run: async (rt, run) => {
    const plan = run.payload as ImportPlan;
    const job = await rt.db.importJob.findUnique({ where: { id: BigInt(plan.jobId) } });
    if (!job || job.status === "done" || job.status === "failed") return;
    // Resumed after a crash, or released by a stopping server after it had begun: either way it is not run again.
    if (run.resumed || job.status === "running") {
      await rt.db.importJob.updateMany({
        where: { id: job.id, status: { in: ["pending", "running"] } },
        data: { status: "failed", error: ABANDONED_ERROR, finished: new Date() },
      });
      await fs.promises.rm(plan.path, { force: true }).catch(() => undefined);
      return;
    }
    await runImport(
      rt.db,
      {
        jobId: job.id,
        appId: job.appId,
        path: plan.path,
        delimiter: plan.delimiter,
        mergeField: job.mergeField as MergeField,
        tags: job.tags,
      },
      run.signal,
    );
  },
};

/** The header row names the props: system ones by `$` name, custom ones by key; the merge field must be there. */
export function mapHeader(names: string[], mergeField: MergeField): Column[] {
  const seen = new Set<string>();
  const cols = names.map((raw, i): Column => {
    const name = raw.trim();
    if (!name) throw new HeaderError(`column ${i + 1} has no name`);
    if (seen.has(name)) throw new HeaderError(`column ${name} appears twice`);
    seen.add(name);
    if (name === "$user_id") {
      if (mergeField !== "$user_id") throw new HeaderError("a $user_id column needs merge_field=$user_id");
      return { kind: "merge" };
    }
    if (!name.startsWith("$")) {
      if (name.length > MAX_STRING)
        throw new HeaderError(`column ${i + 1}: names are at most ${MAX_STRING} characters`);
      return { kind: "custom", key: name };
    }
    const def = systemProp(name);
    if (!def) {
      throw new HeaderError(
        parseEventProp(name) ? `${name}: event properties are read-only` : `${name} is not a system property`,
      );
    }
    return { kind: "system", name, def };
  });
  const hasMerge = names.some((n) => n.trim() === mergeField);
  if (!hasMerge) throw new HeaderError(`the header has no ${mergeField} column (the merge field)`);
  return cols;
}

export function toRow(
  fields: string[],
  line: number,
  cols: Column[],
  mergeField: MergeField,
): ImportRow | string {
  if (fields.length > cols.length) return `${fields.length} cells, but the header has ${cols.length} columns`;
  const row: ImportRow = { line, key: "", system: {}, custom: {} };
  for (let i = 0; i < fields.length; i++) {
    const cell = fields[i]!;
    const col = cols[i]!;
    if (cell.trim() === "") continue;
    if (cell.includes("\u0000")) return `column ${i + 1} contains a NUL character`;
    if (col.kind === "merge") {
      row.key = cell.trim();
      const problem = userIdProblem(row.key);
      if (problem) return `$user_id ${problem}`;
    } else if (col.kind === "system") {
      const v = coerceSystem(col.def.type, cell, col.name);
      if (v instanceof Refused) return v.reason;
      row.system[col.name] = v;
      if (mergeField === "$email" && col.name === "$email") row.key = v as string;
    } else {
      const v = coerceCustom(cell, true);
      if (v instanceof Refused) return `${col.key}: ${v.reason}`;
      row.custom[col.key] = v;
    }
  }
  if (!row.key) return `no ${mergeField} (the merge field)`;
  return row;
}

interface RunPlan {
  jobId: bigint;
  appId: bigint;
  path: string;
  delimiter: string;
  mergeField: MergeField;
  tags: string[];
}

/**
 * Runs an import: reads the spooled file as a stream, writes users in batches, and records progress (bytes, rows)
 * and row errors on the job as it goes. The file is removed at the end, whatever happens.
 */
export async function runImport(db: Db, plan: RunPlan, stop?: AbortSignal): Promise<void> {
  const rowErrors: { row: number; error: string }[] = [];
  let rowsProcessed = 0;
  let rowsImported = 0;
  let processedBytes = 0;
  let batch: ImportRow[] = [];
  // Only a live job is written: one failed from outside stays failed (the user was told so).
  const save = async (extra: Record<string, unknown> = {}) => {
    const { count } = await db.importJob.updateMany({
      where: { id: plan.jobId, status: "running" },
      data: { processedBytes, rowsProcessed, rowsImported, rowErrors, ...extra },
    });
    if (count === 0) throw new Abandoned();
  };
  const flush = async () => {
    const rows = batch;
    batch = [];
    await applyBatch(db, { appId: plan.appId, mergeField: plan.mergeField, rows, tags: plan.tags });
    rowsImported += rows.length;
  };

  try {
    const started = await db.importJob.updateMany({
      where: { id: plan.jobId, status: "pending" },
      data: { status: "running" },
    });
    if (started.count === 0) throw new Abandoned();
    let cols: Column[] | undefined;
    const input = fs.createReadStream(plan.path, { highWaterMark: 256 * 1024 });
    for await (const rec of parseCsv(input, { delimiter: plan.delimiter })) {
      processedBytes = rec.bytes;
      if (!cols) {
        cols = mapHeader(rec.fields, plan.mergeField);
        continue;
      }
      rowsProcessed++;
      const r = toRow(rec.fields, rec.line, cols, plan.mergeField);
      if (typeof r === "string") {
        if (rowErrors.length < MAX_ROW_ERRORS) rowErrors.push({ row: rec.line, error: r });
      } else batch.push(r);
      if (batch.length >= BATCH_ROWS) {
        await flush();
        await save();
        if (stop?.aborted) throw new Stopped();
      }
    }
    if (!cols) throw new HeaderError("the file is empty: the first row must name the columns");
    await flush();
    processedBytes = (await fs.promises.stat(plan.path)).size;
    await save({ status: "done", finished: new Date() });
  } catch (err) {
    if (err instanceof Abandoned) return;
    const known = err instanceof HeaderError || err instanceof CsvError || err instanceof Stopped;
    const message =
      err instanceof CsvError
        ? `line ${err.line}: ${err.message}`
        : err instanceof Stopped
          ? ABANDONED_ERROR
          : known
            ? err.message
            : "the import failed";
    if (!known) console.error(`import job ${plan.jobId} failed:`, err);
    await save({ status: "failed", error: message, finished: new Date() }).catch(() => undefined);
  } finally {
    await fs.promises.rm(plan.path, { force: true }).catch(() => undefined);
  }
}
