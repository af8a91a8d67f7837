import fs from "node:fs";
import { lookupFailed } from "../domain/errors";
import { assertApp, type Ctx } from "../auth/context";
import type { MergeField } from "./apply-batch";
import { runImport } from "./run-import";

export const MAX_IMPORT_BYTES = 30 * 1024 * 1024;

export interface ImportJobRow {
  id: bigint;
  appId: bigint;
  status: string;
  mergeField: string;
  tags: string[];
  totalBytes: bigint;
  processedBytes: bigint;
  rowsProcessed: number;
  rowsImported: number;
  rowErrors: unknown;
  error: string | null;
  created: Date;
  finished: Date | null;
}

/** Imports running in this process, so that tests and shutdown can wait for them. */
const SLOT = Symbol.for("relay.imports");
type Slot = { [SLOT]?: Set<Promise<void>> };
export function runningImports(): Set<Promise<void>> {
  const g = globalThis as Slot;
  return (g[SLOT] ??= new Set());
}

/**
 * Creates the job for a spooled upload and starts it in this process; the caller gets the job at once (status
 * `pending`) and follows it with GET /users/import/{job_id}.
 */
export async function startImport(
  ctx: Ctx,
  input: {
    appId: bigint;
    mergeField: MergeField;
    delimiter: string;
    tags: string[];
    file: { path: string; size: number };
  },
): Promise<ImportJobRow> {
  assertApp(ctx, input.appId);
  let job: ImportJobRow;
  try {
    job = await ctx.db.importJob.create({
      data: {
        appId: input.appId,
        mergeField: input.mergeField,
        tags: input.tags,
        totalBytes: BigInt(input.file.size),
      },
    });
  } catch (err) {
    await fs.promises.rm(input.file.path, { force: true });
    throw err;
  }
  const db = ctx.db;
  const run = runImport(db, {
    jobId: job.id,
    appId: input.appId,
    path: input.file.path,
    delimiter: input.delimiter,
    mergeField: input.mergeField,
    tags: input.tags,
  });
  const running = runningImports();
  running.add(run);
  void run.finally(() => running.delete(run));
  return job;
}

export async function getImportJob(ctx: Ctx, input: { jobId: bigint }): Promise<ImportJobRow> {
  const job = await ctx.db.importJob.findUnique({ where: { id: input.jobId } });
  if (!job) throw lookupFailed(`Import job ${input.jobId} does not exist.`);
  assertApp(ctx, job.appId);
  return job;
}

export function serializeImportJob(j: ImportJobRow) {
  const errors = Array.isArray(j.rowErrors) ? j.rowErrors : [];
  return {
    id: j.id,
    app: j.appId,
    status: j.status,
    merge_field: j.mergeField,
    tags: j.tags,
    total_bytes: Number(j.totalBytes),
    processed_bytes: Number(j.processedBytes),
    rows_processed: j.rowsProcessed,
    rows_imported: j.rowsImported,
    rows_failed: j.rowsProcessed - j.rowsImported,
    row_errors: errors,
    error: j.error,
    created: Math.floor(j.created.getTime() / 1000),
    finished: j.finished ? Math.floor(j.finished.getTime() / 1000) : null,
  };
}
