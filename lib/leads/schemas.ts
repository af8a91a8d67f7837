import { z } from "zod";
import { id, json } from "../contract/schemas";
import { presenceSchema } from "../user-model/schemas";

/** A row of the leads table (GET /apps/{id}/users, serializeLead); v2 adds its tags when asked (`tags`). */
export const leadV1Schema = z.strictObject({ id, presence: presenceSchema, props: json });
export const leadSchema = leadV1Schema.extend({ tags: z.array(z.string()).optional() });
export const leadsPageV1Schema = z.strictObject({ total: z.number().int(), users: z.array(leadV1Schema) });
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
