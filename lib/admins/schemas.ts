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
