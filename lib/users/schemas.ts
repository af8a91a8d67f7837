import { z } from "zod";
import { actor, id, json, seconds, jsonValue } from "../contract/schemas";
import { presenceSchema } from "../user-model/schemas";

/** The users' response shapes (lib/users/serialize-user.ts, notes.ts, lib/user-model/system-props.ts, lib/events). */

/** A user as conversations embed them (serializeUserShort). */
export const userShortSchema = z.strictObject({
  id,
  app: id,
  user_id: z.string(),
  presence: presenceSchema,
  props: json,
});

export const presenceDetailsSchema = z.strictObject({
  presence: presenceSchema,
  page_url: z.string().nullable(),
  page_title: z.string().nullable(),
  last_heartbeat: seconds.nullable(),
});

export const noteSchema = z.strictObject({
  id,
  app: id,
  user: id,
  body: z.string(),
  created: seconds,
  admin: actor.nullable(),
});

export const userSegmentSchema = z.strictObject({ id, app: id, name: z.string(), filters: jsonValue });

const userV1Fields = {
  id,
  app: id,
  user_id: z.string(),
  presence: presenceSchema,
  // Every other field is there only when its switch asks for it (props unless switched off).
  props: json.optional(),
  props_events: json.optional(),
  props_custom: json.optional(),
  presence_details: presenceDetailsSchema.optional(),
  events: z
    .array(
      z.strictObject({
        first: seconds,
        last: seconds,
        count: z.number().int(),
        event_type: z.strictObject({ id, name: z.string(), score: z.number() }),
      }),
    )
    .optional(),
  segments: z.array(userSegmentSchema).optional(),
  notes: z.array(noteSchema).optional(),
};
export const userV1Schema = z.strictObject(userV1Fields);
export const userV2Schema = z.strictObject({
  ...userV1Fields,
  tags: z.array(z.string()).optional(),
  email_status: z.string().optional(),
  timezone_offset: z.number().int().nullable().optional(),
  props_sources: json.optional(),
});

/** GET /apps/{id}/activeusers: the user with its presence details. */
export const activeUserSchema = userShortSchema.extend({ presence_details: presenceDetailsSchema });

export const userTagsSchema = z.strictObject({ tags: z.array(z.string()) });
export const presenceSetSchema = z.strictObject({ id, app: id, presence: presenceSchema });
export const emailStatusSchema = z.strictObject({ id, app: id, email_status: z.string() });
export const webpushSchema = z.strictObject({ id, app: id, webpush_subscribed: z.boolean() });
export const propsSetSchema = z.strictObject({ id, app: id });
export const propsSetMetaV1 = z.strictObject({
  affected_props: z.array(z.string()),
  ignored_operations: z.array(z.unknown()),
});
export const propsSetMetaV2 = propsSetMetaV1.extend({ not_changed_props: z.array(z.string()) });

/** The Event object (lib/events/serialize.ts), the same in both versions. */
export const eventSchema = z.strictObject({
  id,
  created: seconds,
  type: z.strictObject({ id, name: z.string(), score: z.number(), visible: z.boolean() }),
  user: id,
  props: json,
});

export type Presence = z.infer<typeof presenceSchema>;
export type UserShort = z.infer<typeof userShortSchema>;
export type UserV2 = z.infer<typeof userV2Schema>;
export type Note = z.infer<typeof noteSchema>;
export type UserEvent = z.infer<typeof eventSchema>;

/** GET /apps/{id}/activeusers: how many are online in all, beside the page. */
export const activeUsersMeta = z.strictObject({ total: z.number().int() });
