import { z } from "zod";
import { id, seconds } from "../contract/schemas";

export const adminRoleSchema = z.enum(["owner", "operator"]);
/** A member of an app (serializeAppAdmin), v2 only. */
export const adminMemberSchema = z.strictObject({
  id,
  type: z.literal("admin"),
  name: z.string(),
  email: z.string(),
  avatar: z.string(),
  role: adminRoleSchema,
  /** When they joined the app. */
  created: seconds,
});
/** Removing an operator: how many of their conversations went back to unassigned. */
export const adminRemovedSchema = z.strictObject({ unassigned: z.number().int() });

export type AdminMember = z.infer<typeof adminMemberSchema>;
export type AdminRole = z.infer<typeof adminRoleSchema>;

export const availabilitySchema = z.enum(["available", "away"]);
/** An operator's availability in one app: the panel's toggle and the routing's candidates. */
export const adminAvailabilitySchema = z.strictObject({
  type: z.literal("admin_availability"),
  app: id,
  admin_id: id,
  availability: availabilitySchema,
  /** When it last changed. */
  changed: seconds,
  /** The operator's last panel activity, or null when none was seen. */
  last_active: seconds.nullable(),
});

export type Availability = z.infer<typeof availabilitySchema>;
export type AdminAvailability = z.infer<typeof adminAvailabilitySchema>;
