import type { Ctx } from "../auth/context";
import { assertApp, actingAdminId } from "../auth/context";
import { sqlOf } from "../db/sql";
import { invalid, lookupFailed } from "../domain/errors";
import { filterSql, type ConversationFilters } from "../conversations/list";
import { requireMember } from "../conversations/actors";
import { enqueueJob } from "../jobs/store";
import { wakeJobs } from "../jobs/runner";
import { tryRuntime } from "../server/runtime";
import { BULK_JOB_KIND, bulkJobPayload } from "./run-bulk";
import { MAX_BULK_CONVERSATIONS, type BulkAction } from "./schemas";
import type { BulkJobRow, BulkParams } from "./serialize";

export type Selection = { ids: bigint[] } | { filter: ConversationFilters };

export interface StartBulkInput {
  appId: bigint;
  action: BulkAction;
  assignee?: bigint | null;
  snoozedUntil?: Date;
  tag?: string;
  selection: Selection;
}

const tooMany = (n: number | string) =>
  invalid(
    { selection: `matches ${n} conversations; at most ${MAX_BULK_CONVERSATIONS} can be changed at once` },
    `The selection is over the limit of ${MAX_BULK_CONVERSATIONS} conversations: narrow the filter.`,
  );

/**
 * The conversations a job acts on, fixed now: a filter is resolved to the IDs it matches at this moment, so that
 * conversations arriving while the job runs are left alone. Listed IDs are kept as given (deduplicated): one of
 * another app, or none, fails on its own as the job reaches it.
 */
async function snapshot(ctx: Ctx, appId: bigint, selection: Selection): Promise<bigint[]> {
  if ("ids" in selection) {
    const ids = [...new Set(selection.ids)];
    if (ids.length > MAX_BULK_CONVERSATIONS) throw tooMany(ids.length);
    return ids;
  }
  const rows = await sqlOf(ctx.db).$queryRaw<{ id: bigint }[]>`
    SELECT c.id FROM conversations c WHERE ${filterSql(appId, selection.filter)}
    ORDER BY c.last_update DESC, c.id DESC LIMIT ${MAX_BULK_CONVERSATIONS + 1}`;
  if (rows.length > MAX_BULK_CONVERSATIONS) throw tooMany(`more than ${MAX_BULK_CONVERSATIONS}`);
  return rows.map((r) => r.id);
}

/**
 * How many conversations a filter matches now, counted up to one past the cap: what "select all N matching" offers
 * before the job fixes the selection.
 */
export async function countMatching(
  ctx: Ctx,
  input: { appId: bigint; filter: ConversationFilters },
): Promise<{ count: number; over_limit: boolean }> {
  assertApp(ctx, input.appId);
  const [row] = await sqlOf(ctx.db).$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM conversations c WHERE ${filterSql(input.appId, input.filter)}
      LIMIT ${MAX_BULK_CONVERSATIONS + 1}) m`;
  const n = row?.n ?? 0;
  return { count: Math.min(n, MAX_BULK_CONVERSATIONS), over_limit: n > MAX_BULK_CONVERSATIONS };
}

/**
 * Creates the job and queues it for the runner (lib/jobs), in one transaction; the caller gets it at once (status
 * `pending`) and follows it with GET …/conversations/bulk/{job_id} or, as an operator, on its `bulk_job` channel.
 */
export async function startBulkJob(ctx: Ctx, input: StartBulkInput): Promise<BulkJobRow> {
  assertApp(ctx, input.appId);
  if (input.action === "assign" && input.assignee)
    await requireMember(sqlOf(ctx.db), input.appId, input.assignee, "assignee");
  if (input.snoozedUntil && input.snoozedUntil.getTime() <= Date.now())
    throw invalid({ snoozed_until: "must be in the future" });
  const ids = await snapshot(ctx, input.appId, input.selection);
  const params: BulkParams = {};
  if (input.action === "assign") params.assignee = input.assignee ? String(input.assignee) : null;
  if (input.snoozedUntil) params.snoozed_until = Math.round(input.snoozedUntil.getTime() / 1000);
  if (input.tag !== undefined) params.tag = input.tag;
  const job = await ctx.db.$transaction(async (tx) => {
    const row = await tx.bulkJob.create({
      data: {
        appId: input.appId,
        adminId: actingAdminId(ctx) ?? null,
        action: input.action,
        params: { ...params },
        conversationIds: ids,
        total: ids.length,
      },
      omit: { conversationIds: true },
    });
    await enqueueJob(tx, { queue: BULK_JOB_KIND, payload: bulkJobPayload(row.id, ctx.actor) });
    return row;
  });
  wakeJobs(tryRuntime(), BULK_JOB_KIND);
  return job;
}

export async function getBulkJob(ctx: Ctx, input: { appId: bigint; jobId: bigint }): Promise<BulkJobRow> {
  assertApp(ctx, input.appId);
  const job = await ctx.db.bulkJob.findUnique({
    where: { id: input.jobId },
    omit: { conversationIds: true },
  });
  if (!job || job.appId !== input.appId) throw lookupFailed(`Bulk job ${input.jobId} does not exist.`);
  return job;
}
