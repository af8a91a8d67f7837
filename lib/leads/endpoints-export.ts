import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { exportLeadsCsv } from "./export-csv";
import { MAX_EXTRA_PROPS } from "./lead-extras";

export const getUsersExport = endpoint({
  method: "GET",
  path: "/apps/{id}/users/export",
  reads: "replica",
  summary: "The leads matching a filter as CSV, streamed (up to 100,000 rows, in ID order)",
  tags: ["Users"],
  scopes: ["users-list", "app-admin"],
  v2: {
    response: { contentType: "text/csv" },
    params: z.object({
      id: p.appId(),
      filters: z
        .preprocess((v) => (v === "" ? undefined : v), p.json(z.unknown()).optional())
        .meta({ description: "Filters object (JSON), as GET /apps/{id}/users" }),
      props_extra: p
        .list(p.str({ min: 1, max: 255 }), { max: MAX_EXTRA_PROPS })
        .optional()
        .meta({ description: "custom and $event_* props to add as columns" }),
    }),
    handler: async (ctx, input) => {
      const stream = await exportLeadsCsv(ctx, {
        appId: input.id,
        filters: input.filters,
        props: input.props_extra,
      });
      const day = new Date().toISOString().slice(0, 10);
      return new Response(stream, {
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="leads-${input.id}-${day}.csv"`,
          "Cache-Control": "no-store",
        },
      });
    },
  },
});
