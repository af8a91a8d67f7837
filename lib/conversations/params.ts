import { z } from "zod";
import { p } from "../contract/zod";
import { MAX_TIME } from "../contract/dates";
import { PART_FIELDS } from "../parts/serialize";
import { CONVERSATION_FIELDS } from "./view";
import { ASSISTANT_TYPES, type ConversationFilters } from "./list";
import { RATING_FILTERS } from "./schemas";

/** Parameter schemas shared by the conversation endpoints: one schema per shape. */
const lastOf = (v: unknown): unknown => (Array.isArray(v) ? (v as unknown[])[v.length - 1] : v);

function ref<const L extends string>(literal: L, what: string) {
  return z
    .preprocess(
      (raw) => {
        const v = lastOf(raw);
        if (typeof v === "number" && Number.isSafeInteger(v) && v > 0) return BigInt(v);
        if (typeof v === "string" && /^\s*\d{1,19}\s*$/.test(v) && BigInt(v.trim()) > 0n)
          return BigInt(v.trim());
        return v;
      },
      z.union([z.literal(literal), z.bigint().max(2n ** 63n - 1n)], {
        error: `must be ${what} ID or "${literal}"`,
      }),
    )
    .meta({ type: ["integer", "string"], description: `${what} ID or "${literal}"` });
}

/** `from_admin`: an operator's ID or `default_admin`. */
export const adminRef = () => ref("default_admin", "an admin");
/** `from_user`: the conversation's user ID or `default_user`. */
export const userRef = () => ref("default_user", "a user");

const NUL = "\u0000";

/** Text that will be stored: PostgreSQL text and jsonb cannot hold NUL characters, so they are refused up front. */
export const text = (opts: Parameters<typeof p.str>[0] = {}) =>
  p.str(opts).refine((v) => !v.includes(NUL), { error: "must not contain NUL characters" });

const noNul = (o: unknown) => !JSON.stringify(o).includes("\\u0000");

/** The spec's `random_id` is a 32-bit integer; both signed and unsigned readings are accepted. */
export const randomId = () => p.int({ min: -(2 ** 31), max: 2 ** 32 - 1 });

/** A tag: 1 to 255 characters, no comma (commas separate tags in v1 lists). */
export const tag = () =>
  text({ min: 1, max: 255, trim: true }).refine((t) => !t.includes(","), {
    error: "must not contain a comma",
  });

export const quickReply = z
  .object({
    type: z.literal("quick_reply", { error: 'only "quick_reply" is accepted' }),
    body: z
      .string({ error: "must be a string" })
      .min(1, { error: "must be at least 1 character" })
      .max(300, { error: "must be at most 300 characters" }),
    meta_data: z.record(z.string(), z.unknown(), { error: "must be an object" }).optional(),
  })
  .refine(noNul, { error: "must not contain NUL characters" });

export const jsonObject = () =>
  p
    .json(z.record(z.string(), z.unknown(), { error: "must be a JSON object" }))
    .refine((o) => JSON.stringify(o).length <= 65_536, { error: "must be at most 64 KB of JSON" })
    .refine(noNul, { error: "must not contain NUL characters" });

/** A Unix timestamp in seconds (fractions allowed), up to the end of the year 9999 (lib/contract/dates.ts). */
export const timestamp = () =>
  p.num().refine((n) => n >= 0 && n * 1000 <= MAX_TIME, { error: "must be a Unix timestamp in seconds" });

/** Optional-field switches of a conversation (`user`, `channel`, `part_last`, …). */
export const conversationSwitches = Object.fromEntries(
  CONVERSATION_FIELDS.map((f) => [f, p.bool().optional()]),
) as Record<(typeof CONVERSATION_FIELDS)[number], z.ZodOptional<ReturnType<typeof p.bool>>>;

/** Optional-field switches of a part (`attachments`, `body_json`, `meta_data`, `actions`). */
export const partSwitches = Object.fromEntries(PART_FIELDS.map((f) => [f, p.bool().optional()])) as Record<
  (typeof PART_FIELDS)[number],
  z.ZodOptional<ReturnType<typeof p.bool>>
>;

/** The Inbox list's filters (v2), shared with the selections that act on "all matching" (lib/bulk). */
export const conversationFilterParams = {
  closed: p.bool().optional(),
  answered: p.bool().optional(),
  delayed: p.bool().optional(),
  assigned: p.id({ allowZero: true }).optional(),
  tags: p.list(tag(), { max: 50 }).optional(),
  assistant_type: p.oneOf(ASSISTANT_TYPES).optional(),
  include_no_tags: p.bool().optional(),
  include_not_assigned: p.bool().optional(),
  channel: p.id({ allowZero: true }).optional(),
  rating: p.oneOf(RATING_FILTERS).optional(),
};

type FilterInput = {
  [K in keyof typeof conversationFilterParams]?: z.output<(typeof conversationFilterParams)[K]>;
};

export function filtersOf(input: FilterInput): ConversationFilters {
  return {
    closed: input.closed,
    answered: input.answered,
    delayed: input.delayed,
    assigned: input.assigned === 0n ? "none" : input.assigned,
    tags: input.tags,
    channel: input.channel,
    assistantType: input.assistant_type,
    includeNoTags: input.include_no_tags,
    includeNotAssigned: input.include_not_assigned,
    rating: input.rating,
  };
}
