import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { v1Keyset, v1Meta, v1PageParams, v2Keyset, v2Meta, v2PageParams } from "../api/pagination";
import { p } from "../contract/zod";
import { hasNul } from "../user-model/prop-values";
import { userRefParams } from "../users/resolve";
import { EVENT_KEY, listEvents } from "./list-events";
import { serializeEvent } from "./serialize";
import { trackEvent } from "./track-event";
import { v1PageMeta, v2PageMeta } from "../contract/schemas";
import { eventSchema } from "../users/schemas";

export const MAX_EVENT_PARAMS = 50;

export const eventParams = p
  .json(
    z
      .record(
        z
          .string()
          .min(1, { error: "names are 1 to 255 characters" })
          .max(255, { error: "names are 1 to 255 characters" }),
        z.union(
          [z.string().max(255), z.number(), z.boolean(), z.null(), z.array(z.string().max(255)).max(30)],
          { error: "values are strings (≤255), numbers, booleans, null or lists of ≤30 strings" },
        ),
        { error: "must be a JSON object of event properties" },
      )
      .refine((o) => Object.keys(o).length <= MAX_EVENT_PARAMS, {
        error: `at most ${MAX_EVENT_PARAMS} properties`,
      })
      .refine((o) => !hasNul(o), { error: "must not contain NUL characters" }),
  )
  .optional();

const trackParams = z.object({
  ...userRefParams,
  event: p.str({ min: 1, max: 255 }),
  params: eventParams,
  created: p
    .int({ min: 0, max: 99_999_999_999 })
    .optional()
    .meta({ description: "Unix seconds; default now" }),
});

async function track(ctx: Parameters<typeof trackEvent>[0], input: z.output<typeof trackParams>) {
  const ev = await trackEvent(ctx, {
    user: input,
    event: input.event,
    params: input.params,
    created: input.created === undefined ? undefined : new Date(input.created * 1000),
  });
  return { data: serializeEvent(ev) };
}

export const postUserEvent = endpoint({
  method: "POST",
  path: "/users/{id}/events",
  summary: "Track an event of a user (by_user_id creates the user)",
  tags: ["Users"],
  scopes: ["user-write"],
  v1: { params: trackParams, response: eventSchema, handler: track },
  v2: { params: trackParams, response: eventSchema, handler: track },
});

const filterName = p.str({ min: 1, max: 255 }).optional();

export const getUserEvents = endpoint({
  method: "GET",
  path: "/users/{id}/events",
  summary: "Get a user's events, newest first (by_user_id creates the user)",
  tags: ["Users"],
  scopes: ["user-read"],
  v1: {
    response: z.array(eventSchema),
    meta: v1PageMeta,
    params: z.object({ ...userRefParams, filter_name: filterName, ...v1PageParams }),
    handler: async (ctx, input) => {
      const keyset = v1Keyset(input, EVENT_KEY);
      const page = await listEvents(ctx, { user: input, filterName: input.filter_name, page: keyset });
      return { data: page.items.map(serializeEvent), meta: v1Meta(EVENT_KEY, keyset, page) };
    },
  },
  v2: {
    response: z.array(eventSchema),
    meta: v2PageMeta,
    params: z.object({ ...userRefParams, filter_name: filterName, ...v2PageParams }),
    handler: async (ctx, input) => {
      const keyset = v2Keyset(input, EVENT_KEY);
      const page = await listEvents(ctx, { user: input, filterName: input.filter_name, page: keyset });
      return { data: page.items.map(serializeEvent), meta: v2Meta(EVENT_KEY, keyset, page) };
    },
  },
});
