import { z } from "zod";
import { id, seconds, jsonValue } from "../contract/schemas";

/** The Segment object (serializeSegment), the same in both versions. */
export const segmentSchema = z.strictObject({
  id,
  app: id,
  name: z.string(),
  filters: jsonValue,
  created: seconds,
});
export type Segment = z.infer<typeof segmentSchema>;
