import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import type { Ctx } from "../auth/context";
import { jsonOfCustomProps, propsAsStrings } from "../user-model/prop-values";
import { effectivePresence } from "../user-model/presence-state";
import { systemProp, systemProps } from "../user-model/system-props";
import { loadLeadExtras, MAX_EXTRA_PROPS } from "./lead-extras";
import { listLeads, type LeadRow } from "./list-leads";
import { leadsPageSchema, leadsPageV1Schema } from "./schemas";
import { filtersDescription } from "./filters-doc";

const common = {
  id: p.appId(),
  // An empty `filters=` (what a form sends for "no filter") means all users.
  filters: z
    .preprocess((v) => (v === "" ? undefined : v), p.json(z.unknown()).optional())
    .meta({ description: filtersDescription() }),
  sort_prop: p.str({ min: 1, max: 255 }).optional(),
  sort_order: p.oneOf(["asc", "desc"]).optional(),
  offset: p.int({ min: 0, max: 10_000 }).optional(),
};

type CommonInput = z.output<z.ZodObject<typeof common>> & { limit?: number };

/** The one query of both versions: they differ in what counts as a lead and in the limit's floor. */
function leadsPage(ctx: Ctx, input: CommonInput, rule: "v1" | "v2") {
  return listLeads(ctx, {
    appId: input.id,
    filters: input.filters,
    sortProp: input.sort_prop,
    sortOrder: input.sort_order,
    offset: input.offset,
    limit: input.limit,
    rule,
  });
}

/** A user inside the leads list: id, presence and props only (the spec's lead shape). */
export function serializeLead(u: LeadRow, asStrings = false) {
  const props = systemProps(u);
  return {
    id: u.id,
    presence: effectivePresence(u.presence, u.lastHeartbeat),
    props: asStrings ? propsAsStrings(props) : props,
  };
}

export const getAppUsers = endpoint({
  method: "GET",
  path: "/apps/{id}/users",
  reads: "replica",
  summary: "Get users/leads: filtered, sorted, paged by offset",
  tags: ["Users"],
  scopes: ["users-list"],
  v1: {
    response: leadsPageV1Schema,
    params: z.object({ ...common, limit: p.int({ min: 0, max: 50 }).optional() }),
    handler: async (ctx, input) => {
      const r = await leadsPage(ctx, input, "v1");
      return { data: { total: r.total, users: r.users.map((u) => serializeLead(u)) } };
    },
  },
  v2: {
    response: leadsPageSchema,
    params: z.object({
      ...common,
      limit: p.int({ min: 1, max: 50 }).optional(),
      convert_props_types: p.bool().optional(),
      props_extra: p
        .list(p.str({ min: 1, max: 255 }), { max: MAX_EXTRA_PROPS })
        .optional()
        .meta({
          description:
            "extension: custom and $event_* props added to each lead's props (the panel's columns)",
        }),
      tags: p.bool().optional().meta({ description: "extension: each lead's tags" }),
    }),
    handler: async (ctx, input) => {
      const r = await leadsPage(ctx, input, "v2");
      const asStrings = input.convert_props_types === false;
      const extraNames = (input.props_extra ?? []).filter((n) => !systemProp(n));
      const extras = await loadLeadExtras(
        ctx.db,
        r.users.map((u) => u.id),
        { props: extraNames, tags: input.tags === true },
      );
      const users = r.users.map((u) => {
        const lead = serializeLead(u, asStrings);
        const more = extras.props.get(u.id);
        if (more)
          lead.props = { ...lead.props, ...(asStrings ? propsAsStrings(more) : jsonOfCustomProps(more)) };
        return input.tags ? { ...lead, tags: extras.tags.get(u.id) ?? [] } : lead;
      });
      return { data: { total: r.total, users } };
    },
  },
});
