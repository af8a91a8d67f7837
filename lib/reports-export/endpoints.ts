import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { exportReportsCsv } from "./export-csv";

// Its own folder: it reads lib/reports and lib/csat, and lib/csat reads lib/reports (no cycle between folders).
export const getReportsExport = endpoint({
  method: "GET",
  path: "/apps/{id}/reports/export",
  reads: "replica",
  summary:
    "Every report of the range as one CSV table with a `report` column (durations in seconds, the unit in the " +
    "column's name): the Reports page's download",
  tags: ["Reports"],
  scopes: ["conversations-read"],
  v2: {
    response: { contentType: "text/csv" },
    params: z.object({
      id: p.appId(),
      from: p.day(),
      to: p.day(),
      operator: p.id().optional(),
      channel: p.id().optional(),
    }),
    handler: async (ctx, input) => {
      const csv = await exportReportsCsv(ctx, {
        appId: input.id,
        from: input.from,
        to: input.to,
        operator: input.operator,
        channel: input.channel,
      });
      return new Response(csv, {
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="reports-${input.id}-${input.from}-${input.to}.csv"`,
          "Cache-Control": "no-store",
        },
      });
    },
  },
});
