import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { validation } from "../api/errors";
import { p } from "../contract/zod";
import { conversationFilterParams, filtersOf, tag, timestamp } from "../conversations/params";
import { orNone } from "../conversations/endpoints-shared";
import { countMatching, getBulkJob, startBulkJob, type Selection } from "./jobs";
import { serializeBulkJob } from "./serialize";
import {
  BULK_ACTIONS,
  bulkCountSchema,
  bulkJobSchema,
  MAX_BULK_CONVERSATIONS,
  type BulkAction,
} from "./schemas";

// New in v2, for the Inbox's bulk actions: the same scope as each conversation's own state changes.
const TAGS = ["Conversations"];
const YEAR = 366 * 24 * 3600;

const selection = p
  .json(
    z
      .strictObject(
        {
          ids: z
            .array(p.id(), { error: "must be a list of conversation IDs" })
            .min(1, { error: "must name at least one conversation" })
            .max(MAX_BULK_CONVERSATIONS, {
              error: `must have at most ${MAX_BULK_CONVERSATIONS} items: narrow the selection`,
            })
            .optional(),
          filter: z
            .strictObject(conversationFilterParams, { error: "must be an object of list filters" })
            .optional(),
        },
        { error: 'must be {"ids": [...]} or {"filter": {...}}' },
      )
      .refine((s) => (s.ids === undefined) !== (s.filter === undefined), {
        error: "must have either ids or filter, not both",
      }),
  )
  .meta({ description: '{"ids": [conversation IDs]} or {"filter": {the list\'s filters}}' });

const params = z.object({
  id: p.appId(),
  action: p.oneOf(BULK_ACTIONS),
  // Empty, 0 or null unassigns.
  assignee: z
    .preprocess(
      orNone,
      z.union([z.literal("none"), p.id({ allowZero: true })], {
        error: "must be an admin ID, or empty to unassign",
      }),
    )
    .optional(),
  snoozed_until: timestamp().optional().meta({ description: "Unix seconds (snooze)" }),
  duration: p.int({ min: 60, max: YEAR }).optional().meta({ description: "seconds from now (snooze)" }),
  tag: tag().optional(),
  selection,
});
type Input = z.output<typeof params>;

/** Each action's own parameters: required for it, refused for the others. */
const OWN: Record<BulkAction, (keyof Input)[]> = {
  assign: ["assignee"],
  close: [],
  open: [],
  snooze: ["snoozed_until", "duration"],
  tag: ["tag"],
  untag: ["tag"],
};
const ACTION_PARAMS = ["assignee", "snoozed_until", "duration", "tag"] as const;

function checkActionParams(input: Input): void {
  const own = OWN[input.action];
  const fields: Record<string, string> = {};
  for (const k of ACTION_PARAMS) {
    if (input[k] !== undefined && !own.includes(k)) fields[k] = `does not go with action ${input.action}`;
  }
  if (input.action === "assign" && input.assignee === undefined)
    fields.assignee = "is required: an admin ID, or 0 to unassign";
  if (input.action === "snooze") {
    if (input.snoozed_until === undefined && input.duration === undefined)
      fields.snoozed_until = "is required (or duration)";
    if (input.snoozed_until !== undefined && input.duration !== undefined)
      fields.duration = "cannot be combined with snoozed_until";
  }
  if ((input.action === "tag" || input.action === "untag") && input.tag === undefined)
    fields.tag = "is required";
  if (Object.keys(fields).length) throw validation(fields);
}

const selectionOf = (s: Input["selection"]): Selection =>
  s.ids ? { ids: s.ids } : { filter: filtersOf(s.filter ?? {}) };

export const postConversationsBulk = endpoint({
  method: "POST",
  path: "/apps/{id}/conversations/bulk",
  summary:
    `Assign, close, open, snooze, tag or untag many conversations (up to ${MAX_BULK_CONVERSATIONS}) as one ` +
    "job: listed IDs, or every conversation a list filter matches now. Returns the job to follow",
  tags: TAGS,
  scopes: ["conversations-write"],
  v2: {
    response: bulkJobSchema,
    params,
    handler: async (ctx, input) => {
      checkActionParams(input);
      const until =
        input.snoozed_until !== undefined
          ? new Date(Math.round(input.snoozed_until * 1000))
          : input.duration !== undefined
            ? new Date(Date.now() + input.duration * 1000)
            : undefined;
      const assignee =
        input.assignee === undefined || input.assignee === "none" || input.assignee === 0n
          ? null
          : input.assignee;
      const job = await startBulkJob(ctx, {
        appId: input.id,
        action: input.action,
        ...(input.action === "assign" ? { assignee } : {}),
        ...(until ? { snoozedUntil: until } : {}),
        ...(input.tag !== undefined ? { tag: input.tag } : {}),
        selection: selectionOf(input.selection),
      });
      return { data: serializeBulkJob(job) };
    },
  },
});

export const getConversationsBulk = endpoint({
  method: "GET",
  path: "/apps/{id}/conversations/bulk/{bulk_job_id}",
  summary:
    "A bulk job: status, progress (processed = succeeded + failed, out of total) and the first failures",
  tags: TAGS,
  scopes: ["conversations-read"],
  v2: {
    response: bulkJobSchema,
    params: z.object({ id: p.appId(), bulk_job_id: p.id() }),
    handler: async (ctx, input) => ({
      data: serializeBulkJob(await getBulkJob(ctx, { appId: input.id, jobId: input.bulk_job_id })),
    }),
  },
});

export const getConversationsBulkCount = endpoint({
  method: "GET",
  path: "/apps/{id}/conversations/bulk_count",
  summary:
    `How many conversations the list's filters match now (up to ${MAX_BULK_CONVERSATIONS}, the most one bulk ` +
    "job takes; over_limit past it)",
  tags: TAGS,
  scopes: ["conversations-read"],
  v2: {
    response: bulkCountSchema,
    params: z.object({ id: p.appId(), ...conversationFilterParams }),
    handler: async (ctx, input) => ({
      data: await countMatching(ctx, { appId: input.id, filter: filtersOf(input) }),
    }),
  },
});
