import { z } from "zod";
import { endpoint, type VersionSpec } from "../api/endpoint";
import { p } from "../api/zod";
import type { Scope } from "../auth/tokens";
import {
  createSegment,
  deleteSegment,
  getSegment,
  listSegments,
  serializeSegment,
  updateSegment,
} from "./segments";

const filters = p
  .json(z.record(z.string(), z.unknown(), { error: "must be a filters object {type, filters}" }))
  .meta({ description: "Filters object (JSON), the leads grammar" });
const name = p.str({ min: 1, max: 255, trim: true });
const one = { id: p.id(), segment_id: p.id() };

/** Segments answer alike in both versions; v1 tokens need users-list to read and user-write to change them. */
function both<S extends z.ZodType>(spec: VersionSpec<S>, scope: Scope) {
  return { v1: { ...spec, scopes: [scope] }, v2: spec };
}

export const getSegments = endpoint({
  method: "GET",
  path: "/apps/{id}/segments",
  summary: "List the app's segments",
  tags: ["Segments"],
  ...both(
    {
      params: z.object({ id: p.id() }),
      handler: async (ctx, input) => ({
        data: (await listSegments(ctx, { appId: input.id })).map(serializeSegment),
      }),
    },
    "users-list",
  ),
});

export const postSegment = endpoint({
  method: "POST",
  path: "/apps/{id}/segments",
  summary: "Create a segment (a named filter over users)",
  tags: ["Segments"],
  ...both(
    {
      params: z.object({ id: p.id(), name, filters }),
      handler: async (ctx, input) => ({
        data: serializeSegment(
          await createSegment(ctx, { appId: input.id, name: input.name, filters: input.filters }),
        ),
      }),
    },
    "user-write",
  ),
});

export const getOneSegment = endpoint({
  method: "GET",
  path: "/apps/{id}/segments/{segment_id}",
  summary: "Get a segment",
  tags: ["Segments"],
  ...both(
    {
      params: z.object(one),
      handler: async (ctx, input) => ({
        data: serializeSegment(await getSegment(ctx, { appId: input.id, segmentId: input.segment_id })),
      }),
    },
    "users-list",
  ),
});

const updateParams = z.object({ ...one, name: name.optional(), filters: filters.optional() });
const updateSpec: VersionSpec<typeof updateParams> = {
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
  ...both(updateSpec, "user-write"),
});

export const putOneSegment = endpoint({
  method: "PUT",
  path: "/apps/{id}/segments/{segment_id}",
  summary: "Rename a segment or change its filters",
  tags: ["Segments"],
  ...both(updateSpec, "user-write"),
});

export const deleteOneSegment = endpoint({
  method: "DELETE",
  path: "/apps/{id}/segments/{segment_id}",
  summary: "Delete a segment (refused while another segment refers to it)",
  tags: ["Segments"],
  ...both(
    {
      params: z.object(one),
      handler: async (ctx, input) => {
        await deleteSegment(ctx, { appId: input.id, segmentId: input.segment_id });
        return { data: {} };
      },
    },
    "user-write",
  ),
});
