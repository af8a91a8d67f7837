import { z } from "zod";
import type { Ctx } from "../auth/context";
import type { Scope } from "../auth/scopes";
import { isDomainError } from "../domain/errors";
import {
  assignConversation,
  closeConversation,
  delayConversation,
  reopenConversation,
  tagConversation,
  type Changed,
} from "../conversations/change";
import { publishTransient, withEvents } from "../eventlog/append";
import { releaseBulkNotices } from "../notifications/bulk";
import type { JobKind, JobRun } from "../jobs/runner";
import type { Runtime } from "../server/runtime";
import { serializeBulkJob, type BulkJobRow, type BulkParams } from "./serialize";
import { MAX_BULK_ERRORS, type BulkAction } from "./schemas";
import { eventOf, operatorChannel } from "../contract/socket";

/** Conversations between two saves of the job's progress. */
export const BATCH = 25;
/** The acting operator hears of progress at most this often (and always of the end). */
export const PUSH_EVERY_MS = 250;

export const BULK_JOB_KIND = "bulk";

/**
 * What the runner's row holds: the bulk job, and who asked (the job acts as them on every claim, a resumed one
 * included). Scopes are kept for the token's sake; its key is not looked up again.
 */
const payloadSchema = z.object({
  bulkJob: z.string(),
  actor: z.union([
    z.object({ kind: z.literal("admin"), adminId: z.string(), sessionId: z.string() }),
    z.object({ kind: z.literal("token"), apiKeyId: z.string(), scopes: z.array(z.string()) }),
  ]),
});

export function bulkJobPayload(jobId: bigint, actor: Ctx["actor"]): z.infer<typeof payloadSchema> {
  const who =
    actor.kind === "admin"
      ? { kind: "admin" as const, adminId: String(actor.adminId), sessionId: String(actor.sessionId) }
      : actor.kind === "token"
        ? { kind: "token" as const, apiKeyId: String(actor.apiKeyId), scopes: actor.scopes }
        : undefined;
  if (!who) throw new Error(`a bulk job needs an operator or a token, not ${actor.kind}`);
  return { bulkJob: String(jobId), actor: who };
}

/**
 * The job acts as the operator who asked, on this one app only: an operator of several apps listing another
 * app's conversation gets it refused (counted as failed), not changed through this app's job.
 */
function jobCtx(rt: Runtime, appId: bigint, p: z.infer<typeof payloadSchema>, jobId: bigint): Ctx {
  const a = p.actor;
  const actor: Ctx["actor"] =
    a.kind === "admin"
      ? { kind: "admin", adminId: BigInt(a.adminId), sessionId: BigInt(a.sessionId), appIds: [appId] }
      : { kind: "token", apiKeyId: BigInt(a.apiKeyId), appId, scopes: a.scopes as Scope[] };
  return { db: rt.db, actor, appId, requestId: `bulk-${jobId}`, bulkJob: jobId };
}

export interface BulkPlan {
  job: BulkJobRow;
  ids: bigint[];
  action: BulkAction;
  params: BulkParams;
}

/** The job reads as finished (by an earlier holder, or failed from outside): whatever this claim does, it is over. */
class Finished extends Error {}

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

/** The runner's kind: loads the job and runs it from where its last holder saved, if any. */
export const bulkJobKind: JobKind = {
  name: BULK_JOB_KIND,
  concurrency: 2,
  maxAttempts: 1,
  run: async (rt, run) => {
    const p = payloadSchema.parse(run.payload);
    const row = await rt.db.bulkJob.findUnique({ where: { id: BigInt(p.bulkJob) } });
    if (!row || row.status === "done" || row.status === "failed") return;
    const { conversationIds, ...job } = row;
    const plan: BulkPlan = {
      job,
      ids: conversationIds,
      action: row.action as BulkAction,
      params: row.params as BulkParams,
    };
    return runBulkJob(jobCtx(rt, row.appId, p, row.id), plan, run);
  },
};

/**
 * Runs a bulk job: one conversation at a time, each in its own transaction through the single-conversation service
 * (parts, events, webhooks and real-time updates exactly as for one), saving progress every batch and telling the
 * acting operator of it on their `bulk_job` channel. Starts after what the job's saved progress counts (a resumed
 * job redoes at most the batch its last holder had not saved: each action leaves alone what is already as asked).
 * Stopped (shutdown), it saves and returns "again" for the next claimer to go on.
 */
export async function runBulkJob(
  ctx: Ctx,
  plan: BulkPlan,
  run: Pick<JobRun, "signal">,
): Promise<void | "again"> {
  const db = ctx.db;
  const { job } = plan;
  const counts = {
    processed: job.processed,
    succeeded: job.succeeded,
    unchanged: job.unchanged,
    failed: job.failed,
  };
  const errors: { conversation: string; error: string }[] = Array.isArray(job.errors)
    ? (job.errors as { conversation: string; error: string }[])
    : [];
  let pushed = 0;
  const save = async (extra: Partial<Pick<BulkJobRow, "status" | "error" | "finished">> = {}) => {
    // The end, and only the end, tells the operators (one notification each for the whole job), in the same
    // transaction as the status: whoever finishes the job tells them, once.
    const count = await withEvents(db, async (tx, emit) => {
      const { count } = await tx.bulkJob.updateMany({
        where: { id: job.id, status: { in: ["pending", "running"] } },
        data: { status: "running", ...counts, errors, ...extra },
      });
      if (count > 0 && extra.status !== undefined) await releaseBulkNotices(tx, emit, job.id);
      return count;
    });
    if (count === 0) throw new Finished();
    const now = Date.now();
    if (extra.status !== undefined || now - pushed >= PUSH_EVERY_MS) {
      pushed = now;
      pushProgress(ctx, { ...job, status: "running", ...counts, errors, ...extra });
    }
  };

  try {
    await save();
    for (let i = counts.processed; i < plan.ids.length; i++) {
      if (run.signal.aborted) {
        await save();
        return "again";
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
    if (err instanceof Finished) return;
    console.error(`bulk job ${job.id} failed:`, err);
    await save({
      status: "failed",
      error: "the job stopped on an internal error",
      finished: new Date(),
    }).catch(() => undefined);
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
      channel: operatorChannel("bulk_job", job.appId, ctx.actor.adminId),
      type: "bulk_job",
      payload,
    });
  if (job.status === "done" || job.status === "failed")
    publishTransient(eventOf("conversation_bulk", job, payload));
}
