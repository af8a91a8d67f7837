import { z } from "zod";
import { id, seconds } from "../contract/schemas";

/** An import job (serializeImportJob), the same in both versions. */
export const importJobSchema = z.strictObject({
  id,
  app: id,
  status: z.enum(["pending", "running", "done", "failed"]),
  merge_field: z.string(),
  tags: z.array(z.string()),
  total_bytes: z.number().int(),
  processed_bytes: z.number().int(),
  rows_processed: z.number().int(),
  rows_imported: z.number().int(),
  rows_failed: z.number().int(),
  row_errors: z.array(z.strictObject({ row: z.number().int(), error: z.string() })),
  error: z.string().nullable(),
  created: seconds,
  finished: seconds.nullable(),
});
export type ImportJob = z.infer<typeof importJobSchema>;
