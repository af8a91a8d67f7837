import { z } from "zod";
import { bothVersions, endpoint, type VersionSpec } from "../api/endpoint";
import { p } from "../contract/zod";
import {
  createSegment,
  deleteSegment,
  getSegment,
  listSegments,
  serializeSegment,
  updateSegment,
} from "./segments";
import { empty } from "../contract/schemas";
import { segmentSchema } from "./schemas";
import { filtersDescription } from "../leads/filters-doc";

const filters = p
  .json(z.record(z.string(), z.unknown(), { error: "must be a filters object {type, filters}" }))
  .meta({ description: filtersDescription() });
const name = p.str({ min: 1, max: 255, trim: true });
const one = { id: p.appId(), segment_id: p.id() };

/** v1 tokens change segments with user-write (v1's rule for writes); later versions need users-list. */
function changing<S extends z.ZodType>(spec: VersionSpec<S>) {
  return { v1: { ...spec, scopes: ["user-write"] as const }, v2: spec };
}

export const getSegments = endpoint({
  method: "GET",
  path: "/apps/{id}/segments",
  summary: "List the app's segments",
  tags: ["Segments"],
  scopes: ["users-list"],
  ...bothVersions({
    response: z.array(segmentSchema),
    params: z.object({ id: p.appId() }),
    handler: async (ctx, input) => ({
      data: (await listSegments(ctx, { appId: input.id })).map(serializeSegment),
    }),
  }),
});

export const postSegment = endpoint({
  method: "POST",
  path: "/apps/{id}/segments",
  summary: "Create a segment (a named filter over users)",
  tags: ["Segments"],
  scopes: ["users-list"],
  ...changing({
    response: segmentSchema,
    params: z.object({ id: p.appId(), name, filters }),
    handler: async (ctx, input) => ({
      data: serializeSegment(
        await createSegment(ctx, { appId: input.id, name: input.name, filters: input.filters }),
      ),
    }),
  }),
});

export const getOneSegment = endpoint({
  method: "GET",
  path: "/apps/{id}/segments/{segment_id}",
  summary: "Get a segment",
  tags: ["Segments"],
  scopes: ["users-list"],
  ...bothVersions({
    response: segmentSchema,
    params: z.object(one),
    handler: async (ctx, input) => ({
      data: serializeSegment(await getSegment(ctx, { appId: input.id, segmentId: input.segment_id })),
    }),
  }),
});

const updateParams = z.object({ ...one, name: name.optional(), filters: filters.optional() });
const updateSpec: VersionSpec<typeof updateParams> = {
  response: segmentSchema,
  params: updateParams,
  handler: async (ctx, input) => ({
    data: serializeSegment(
      await updateSegment(ctx, {
        appId: input.id,
        segmentId: input.segment_id,
        name: input.name,
        filters: input.filters,
      }),
    ),
  }),
};

export const postOneSegment = endpoint({
  method: "POST",
  path: "/apps/{id}/segments/{segment_id}",
  summary: "Rename a segment or change its filters",
  tags: ["Segments"],
  scopes: ["users-list"],
  ...changing(updateSpec),
});

export const putOneSegment = endpoint({
  method: "PUT",
  path: "/apps/{id}/segments/{segment_id}",
  summary: "Rename a segment or change its filters",
  tags: ["Segments"],
  scopes: ["users-list"],
  ...changing(updateSpec),
});

export const deleteOneSegment = endpoint({
  method: "DELETE",
  path: "/apps/{id}/segments/{segment_id}",
  summary: "Delete a segment (refused while another segment refers to it)",
  tags: ["Segments"],
  scopes: ["users-list"],
  ...changing({
    response: empty,
    params: z.object(one),
    handler: async (ctx, input) => {
      await deleteSegment(ctx, { appId: input.id, segmentId: input.segment_id });
      return { data: {} };
    },
  }),
});
