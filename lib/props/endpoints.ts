import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { userRefParams } from "../users/resolve";
import { MAX_OPERATIONS } from "./operations";
import { setUserProps } from "./set-props";
import { empty } from "../contract/schemas";
import { propsSetMetaV1, propsSetMetaV2, propsSetSchema } from "../users/schemas";

// p.json takes the last of a repeated parameter, which would make an empty JSON array read as absent.
const operations = z
  .preprocess(
    (v) => (Array.isArray(v) && v.length === 0 ? "[]" : v),
    p.json(
      z
        .array(z.unknown(), { error: "must be a JSON array of operations {op, key, value}" })
        .max(MAX_OPERATIONS, { error: `must have at most ${MAX_OPERATIONS} operations` }),
    ),
  )
  .meta({ type: "array", description: "JSON array of {op, key, value}" });

const source = p
  .json(
    z.object(
      {
        type: z.string({ error: "must be a string" }).min(1).max(255),
        id: p.id().optional(),
      },
      { error: "must be a JSON object {type, id?}" },
    ),
  )
  .optional();

export const postUserProps = endpoint({
  method: "POST",
  path: "/users/{id}/props",
  summary: "Set user properties: operations in order, in one transaction; invalid ones are reported",
  tags: ["Users"],
  scopes: ["user-write"],
  v1: {
    response: empty,
    meta: propsSetMetaV1,
    params: z.object({ ...userRefParams, operations }),
    handler: async (ctx, input) => {
      const r = await setUserProps(ctx, { user: input, operations: input.operations });
      // v1 reports operations that changed nothing among the ignored ones.
      return {
        data: {},
        meta: { affected_props: r.affected, ignored_operations: [...r.ignored, ...r.noop] },
      };
    },
  },
  v2: {
    response: propsSetSchema,
    meta: propsSetMetaV2,
    params: z.object({
      ...userRefParams,
      operations,
      double_subscribe: p.bool().optional(),
      parse_custom_props_type: p.bool().optional(),
      source,
    }),
    handler: async (ctx, input) => {
      const r = await setUserProps(ctx, {
        user: input,
        operations: input.operations,
        parseTypes: input.parse_custom_props_type ?? true,
        doubleSubscribe: input.double_subscribe ?? false,
        source: input.source,
      });
      return {
        data: { id: r.id, app: r.appId },
        meta: { affected_props: r.affected, not_changed_props: r.notChanged, ignored_operations: r.ignored },
      };
    },
  },
});
