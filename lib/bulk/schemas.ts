import { z } from "zod";
import { id, seconds } from "../contract/schemas";

/** What a bulk job does to each conversation: the single-conversation action of the same name. */
export const BULK_ACTIONS = ["assign", "close", "open", "snooze", "tag", "untag"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export const BULK_STATUSES = ["pending", "running", "done", "failed"] as const;

/** The most conversations one job acts on: a larger selection is refused whole, before anything changes. */
export const MAX_BULK_CONVERSATIONS = 10_000;
/** Per-conversation failures kept on the job; past this only their number grows. */
export const MAX_BULK_ERRORS = 100;

/** A bulk job (serializeBulkJob): its progress adds up as processed = succeeded + failed, out of total. */
export const bulkJobSchema = z.strictObject({
  id,
  app: id,
  admin: id.nullable(),
  action: z.enum(BULK_ACTIONS),
  params: z.strictObject({
    assignee: id.nullable().optional(),
    snoozed_until: seconds.optional(),
    tag: z.string().optional(),
  }),
  status: z.enum(BULK_STATUSES),
  total: z.number().int(),
  processed: z.number().int(),
  succeeded: z.number().int(),
  /** Of the succeeded, those already as asked (nothing written). */
  unchanged: z.number().int(),
  failed: z.number().int(),
  errors: z.array(z.strictObject({ conversation: id, error: z.string() })),
  error: z.string().nullable(),
  created: seconds,
  finished: seconds.nullable(),
});
export type BulkJob = z.infer<typeof bulkJobSchema>;

/** How many conversations a list filter matches, up to the cap; `over_limit` past it. */
export const bulkCountSchema = z.strictObject({ count: z.number().int(), over_limit: z.boolean() });
