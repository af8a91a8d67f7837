import { z } from "zod";
import { id, json } from "../api/schemas";
import { presenceSchema } from "../users/schemas";

/** A row of the leads table (GET /apps/{id}/users, serializeLead). */
export const leadSchema = z.strictObject({ id, presence: presenceSchema, props: json });
export const leadsPageSchema = z.strictObject({ total: z.number().int(), users: z.array(leadSchema) });

export const propTypeSchema = z.enum(["string", "integer", "float", "boolean", "datetime", "list"]);
/** GET /apps/{id}/props: the columns and filters the leads table offers (lib/props/catalog.ts). */
export const catalogPropSchema = z.strictObject({
  name: z.string(),
  kind: z.enum(["system", "custom", "event"]),
  type: propTypeSchema,
  /** The event's name and part for event props. */
  label: z.string(),
  read_only: z.boolean(),
  /** Custom props: how many sampled users have it. */
  users: z.number().int().optional(),
});

export type Lead = z.infer<typeof leadSchema>;
export type LeadsPage = z.infer<typeof leadsPageSchema>;
export type PropType = z.infer<typeof propTypeSchema>;
export type CatalogProp = z.infer<typeof catalogPropSchema>;
