import fs from "node:fs";
import type { Db } from "../db/client";
import { coerceCustom, coerceSystem, MAX_STRING, Refused } from "../user-model/prop-values";
import { parseEventProp, systemProp, type SystemPropDef } from "../user-model/system-props";
import { applyBatch, type ImportRow, type MergeField } from "./apply-batch";
import { CsvError, parseCsv } from "./csv";
import { beat, HEARTBEAT_EVERY_MS } from "./abandoned";
import { userIdProblem } from "../users/user-id";

export const BATCH_ROWS = 1000;
/** Row errors kept on the job; past this only their number grows. */
export const MAX_ROW_ERRORS = 1000;

export interface ImportPlan {
  jobId: bigint;
  appId: bigint;
  path: string;
  delimiter: string;
  mergeField: MergeField;
  tags: string[];
}

type Column =
  { kind: "merge" } | { kind: "system"; name: string; def: SystemPropDef } | { kind: "custom"; key: string };

class HeaderError extends Error {}
/** The job was failed by the sweeper (its heartbeat looked stopped): whatever this process does, it is over. */
class Abandoned extends Error {}

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

/**
 * Runs an import in the background: reads the spooled file as a stream, writes users in batches, and records
 * progress (bytes, rows) and row errors on the job as it goes. The file is removed at the end, whatever happens.
 */
export async function runImport(db: Db, plan: ImportPlan): Promise<void> {
  const rowErrors: { row: number; error: string }[] = [];
  let rowsProcessed = 0;
  let rowsImported = 0;
  let processedBytes = 0;
  let batch: ImportRow[] = [];
  // Only a live job is written: one the sweeper failed stays failed (the user was told so).
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

  const heartbeat = setInterval(() => void beat(db, plan.jobId).catch(() => undefined), HEARTBEAT_EVERY_MS);
  heartbeat.unref();
  try {
    const started = await db.importJob.updateMany({
      where: { id: plan.jobId, status: "pending" },
      data: { status: "running" },
    });
    if (started.count === 0) throw new Abandoned();
    await beat(db, plan.jobId);
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
      }
    }
    if (!cols) throw new HeaderError("the file is empty: the first row must name the columns");
    await flush();
    processedBytes = (await fs.promises.stat(plan.path)).size;
    await save({ status: "done", finished: new Date() });
  } catch (err) {
    if (err instanceof Abandoned) return;
    const known = err instanceof HeaderError || err instanceof CsvError;
    const message =
      err instanceof CsvError
        ? `line ${err.line}: ${err.message}`
        : known
          ? err.message
          : "the import failed";
    if (!known) console.error(`import job ${plan.jobId} failed:`, err);
    await save({ status: "failed", error: message, finished: new Date() }).catch(() => undefined);
  } finally {
    clearInterval(heartbeat);
    await fs.promises.rm(plan.path, { force: true }).catch(() => undefined);
  }
}
