import { z } from "zod";
import { tokenPairSchema } from "../sessions/schemas";
import { operatorsNowShape, visitorSchema } from "./visitor-schemas";

/**
 * What the messenger's identity calls answer (/api/messenger/identify, auth, heartbeat). Browser-safe (zod only):
 * the frame's types come from here.
 */

/** POST /messenger/auth: a new token pair for the user the visitor now is. */
export const visitorAuthSchema = z.strictObject({
  ...tokenPairSchema.shape,
  visitor: visitorSchema,
  /** Whether the user_id was proven by its hash (an unverified one is only accepted where the app allows). */
  verified: z.boolean(),
  /** Whether the visitor was merged into a user the app already knew (its conversations now that user's). */
  merged: z.boolean(),
});

/** Operations of POST /messenger/identify that were not applied, with their reason (as POST /users/{id}/props). */
export const identifyMeta = z.strictObject({ ignored_operations: z.array(z.unknown()) });

export const heartbeatSchema = z.strictObject({
  /** Operators' replies the visitor has not read. */
  unread: z.number().int(),
  ...operatorsNowShape,
});

export type VisitorAuth = z.infer<typeof visitorAuthSchema>;
export type Heartbeat = z.infer<typeof heartbeatSchema>;
