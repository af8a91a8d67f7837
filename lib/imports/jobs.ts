import fs from "node:fs";
import { lookupFailed } from "../domain/errors";
import { assertApp, type Ctx } from "../auth/context";
import type { MergeField } from "./apply-batch";
import { enqueueJob } from "../jobs/store";
import { wakeJobs } from "../jobs/runner";
import { tryRuntime } from "../server/runtime";
import { IMPORT_JOB_KIND, type ImportPlan } from "./run-import";

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

/**
 * Creates the job for a spooled upload and queues it for the runner (lib/jobs), in one transaction; the caller gets
 * the job at once (status `pending`) and follows it with GET /users/import/{job_id}.
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
    job = await ctx.db.$transaction(async (tx) => {
      const row = await tx.importJob.create({
        data: {
          appId: input.appId,
          mergeField: input.mergeField,
          tags: input.tags,
          totalBytes: BigInt(input.file.size),
        },
      });
      const plan: ImportPlan = {
        jobId: String(row.id),
        path: input.file.path,
        delimiter: input.delimiter,
      };
      await enqueueJob(tx, { queue: IMPORT_JOB_KIND, payload: plan });
      return row;
    });
  } catch (err) {
    await fs.promises.rm(input.file.path, { force: true });
    throw err;
  }
  wakeJobs(tryRuntime(), IMPORT_JOB_KIND);
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
