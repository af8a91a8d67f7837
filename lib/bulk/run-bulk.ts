import type { Ctx } from "../auth/context";
import { isDomainError } from "../domain/errors";
import {
  assignConversation,
  closeConversation,
  delayConversation,
  reopenConversation,
  tagConversation,
  type Changed,
} from "../conversations/change";
import { publishTransient } from "../eventlog/append";
import { ABANDONED_ERROR, beatBulk, HEARTBEAT_EVERY_MS } from "./abandoned";
import { serializeBulkJob, type BulkJobRow, type BulkParams } from "./serialize";
import { bulkEndChannel, bulkJobChannel, MAX_BULK_ERRORS, type BulkAction } from "./schemas";

/** Conversations between two saves of the job's progress. */
export const BATCH = 25;
/** The acting operator hears of progress at most this often (and always of the end). */
export const PUSH_EVERY_MS = 250;

export interface BulkPlan {
  /** The job as created. */
  job: BulkJobRow;
  ids: bigint[];
  action: BulkAction;
  params: BulkParams;
}

/** The job was failed by the sweeper (its heartbeat looked stopped): whatever this process does, it is over. */
class Abandoned extends Error {}

/** One conversation through the same service as its single action, as the operator who asked. */
function applyOne(ctx: Ctx, plan: BulkPlan, conversationId: bigint): Promise<Changed> {
  const { params } = plan;
  switch (plan.action) {
    case "assign":
      return assignConversation(ctx, {
        conversationId,
        admin: params.assignee ? BigInt(params.assignee) : null,
      });
    case "close":
      return closeConversation(ctx, { conversationId });
    case "open":
      return reopenConversation(ctx, { conversationId });
    case "snooze":
      return delayConversation(ctx, { conversationId, until: new Date((params.snoozed_until ?? 0) * 1000) });
    case "tag":
    case "untag":
      return tagConversation(ctx, {
        conversationId,
        tag: params.tag ?? "",
        action: plan.action === "tag" ? "add" : "delete",
      });
  }
}

/** Words for one conversation's failure: the service's own, except for one of another app (never its contents). */
function failureOf(err: unknown, conversationId: bigint): string {
  if (isDomainError(err)) {
    if (err.kind === "denied") return `Conversation ${conversationId} is not in this app.`;
    if (err.kind !== "internal") return err.message;
  }
  console.error(`bulk job: conversation ${conversationId} failed:`, err);
  return "an internal error";
}

/**
 * Runs a bulk job in the background: one conversation at a time, each in its own transaction through the
 * single-conversation service (parts, events, webhooks and real-time updates exactly as for one), saving progress
 * every batch and telling the acting operator of it on their `bulk_job` channel.
 */
export async function runBulkJob(ctx: Ctx, plan: BulkPlan, stop?: AbortSignal): Promise<void> {
  const db = ctx.db;
  const counts = { processed: 0, succeeded: 0, unchanged: 0, failed: 0 };
  const errors: { conversation: string; error: string }[] = [];
  let pushed = 0;
  // Only a live job is written: one the sweeper failed stays failed (the operator was told so).
  const save = async (extra: Partial<Pick<BulkJobRow, "status" | "error" | "finished">> = {}) => {
    const { count } = await db.bulkJob.updateMany({
      where: { id: plan.job.id, status: "running" },
      data: { ...counts, errors, ...extra },
    });
    if (count === 0) throw new Abandoned();
    const now = Date.now();
    if (extra.status !== undefined || now - pushed >= PUSH_EVERY_MS) {
      pushed = now;
      pushProgress(ctx, { ...plan.job, status: "running", ...counts, errors, ...extra });
    }
  };

  const heartbeat = setInterval(
    () => void beatBulk(db, plan.job.id).catch(() => undefined),
    HEARTBEAT_EVERY_MS,
  );
  heartbeat.unref();
  try {
    const started = await db.bulkJob.updateMany({
      where: { id: plan.job.id, status: "pending" },
      data: { status: "running" },
    });
    if (started.count === 0) throw new Abandoned();
    await save();
    for (let i = 0; i < plan.ids.length; i++) {
      if (stop?.aborted) {
        await save({ status: "failed", error: ABANDONED_ERROR, finished: new Date() });
        return;
      }
      const id = plan.ids[i]!;
      try {
        const changed = await applyOne(ctx, plan, id);
        counts.succeeded++;
        if (!changed) counts.unchanged++;
      } catch (err) {
        counts.failed++;
        if (errors.length < MAX_BULK_ERRORS)
          errors.push({ conversation: String(id), error: failureOf(err, id) });
      }
      counts.processed++;
      if (counts.processed % BATCH === 0 && counts.processed < plan.ids.length) await save();
    }
    await save({ status: "done", finished: new Date() });
  } catch (err) {
    if (err instanceof Abandoned) return;
    console.error(`bulk job ${plan.job.id} failed:`, err);
    await save({
      status: "failed",
      error: "the job stopped on an internal error",
      finished: new Date(),
    }).catch(() => undefined);
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * Progress is not logged (the job itself is the record): straight to the operator's sockets. Its end also goes to
 * every panel of the app (`conversation_bulk`, whoever started it, an API token too): each one watching a list
 * the job changed reads it again, rather than rely on patching it from the conversations' own messages alone.
 */
function pushProgress(ctx: Ctx, job: BulkJobRow): void {
  const payload = serializeBulkJob(job);
  if (ctx.actor.kind === "admin")
    publishTransient({
      appId: job.appId,
      channel: bulkJobChannel(job.appId, ctx.actor.adminId),
      type: "bulk_job",
      payload,
    });
  if (job.status === "done" || job.status === "failed")
    publishTransient({
      appId: job.appId,
      channel: bulkEndChannel(job.appId),
      type: "conversation_bulk",
      payload,
    });
}
