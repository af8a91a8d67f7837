import { z } from "zod";
import { id, seconds } from "../contract/schemas";

export const operatorRoleSchema = z.enum(["owner", "operator"]);
/** A member of an app (serializeAppAdmin), v2 only. */
export const operatorSchema = z.strictObject({
  id,
  type: z.literal("admin"),
  name: z.string(),
  email: z.string(),
  avatar: z.string(),
  role: operatorRoleSchema,
  /** When they joined the app. */
  created: seconds,
});
/** Removing an operator: how many of their conversations went back to unassigned. */
export const operatorRemovedSchema = z.strictObject({ unassigned: z.number().int() });

export type Operator = z.infer<typeof operatorSchema>;
export type OperatorRole = z.infer<typeof operatorRoleSchema>;
