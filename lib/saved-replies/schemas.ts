import { z } from "zod";
import { id, seconds } from "../contract/schemas";

/** What a shortcut may be: typed after `/` in the composer, so no spaces and one case. */
export const SHORTCUT_PATTERN = /^[a-z0-9_-]{1,32}$/;
export const SAVED_REPLY_TITLE_MAX = 255;
/** The reply body limit (lib/conversations/reply.ts MAX_BODY): a saved reply must be sendable as it is. */
export const SAVED_REPLY_BODY_MAX = 10_000;

/** The SavedReply object (serializeSavedReply), v2. */
export const savedReplySchema = z.strictObject({
  id,
  app: id,
  shortcut: z.string(),
  title: z.string(),
  body: z.string(),
  /** The operator who wrote it; null when a token did, or the operator has left. */
  created_by: id.nullable(),
  created: seconds,
  updated: seconds,
});
export type SavedReply = z.infer<typeof savedReplySchema>;
