import { z } from "zod";
import { id, jsonValue } from "../contract/schemas";

/** The Channel object (serializeChannel), the same in both versions. */
export const channelSchema = z.strictObject({
  id,
  name: z.string(),
  type: z.string(),
  avatar: z.string(),
  droppable: z.boolean(),
  not_assigned_count: z.number().int(),
  not_read_count: z.number().int(),
  read_permission: jsonValue,
});
export type Channel = z.infer<typeof channelSchema>;
