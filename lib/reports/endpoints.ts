import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import type { Ctx } from "../auth/context";
import type { Serialized } from "../contract/schemas";
import type { ReportInput } from "./range";
import { reportBreakdown } from "./breakdown";
import { reportBusiestHours } from "./busiest-hours";
import { reportConversations, reportLeads } from "./conversations-report";
import { reportOperators } from "./operators-report";
import { reportResponseTimes } from "./response-times";
import {
  BREAKDOWN_BY,
  breakdownReportSchema,
  busiestHoursReportSchema,
  conversationsReportSchema,
  leadsReportSchema,
  operatorsReportSchema,
  responseTimesReportSchema,
} from "./schemas";

// Read-only and new in v2: the panel's Reports page and API clients read the same series.
const params = z.object({
  id: p.appId(),
  from: p.day(),
  to: p.day(),
  operator: p.id().optional(),
  channel: p.id().optional(),
});
type Params = z.infer<typeof params>;

function report<T extends z.ZodType>(
  series: string,
  summary: string,
  response: T,
  run: (ctx: Ctx, input: ReportInput) => Promise<Serialized<z.infer<T>>>,
) {
  return endpoint({
    method: "GET",
    path: `/apps/{id}/reports/${series}`,
    reads: "replica",
    summary,
    tags: ["Reports"],
    scopes: ["conversations-read"],
    v2: {
      response,
      params,
      handler: async (ctx, input: Params) => ({
        data: await run(ctx, {
          appId: input.id,
          from: input.from,
          to: input.to,
          operator: input.operator,
          channel: input.channel,
        }),
      }),
    },
  });
}

export const getConversationsReport = report(
  "conversations",
  "Conversations started and closed per day of the app's time zone (from, to: YYYY-MM-DD, inclusive)",
  conversationsReportSchema,
  reportConversations,
);

export const getResponseTimesReport = report(
  "response_times",
  "First response (by the conversation's start day) and time to close (by the close's day): median and p90 in seconds",
  responseTimesReportSchema,
  reportResponseTimes,
);

export const getBusiestHoursReport = report(
  "busiest_hours",
  "Visitors' messages by ISO weekday and hour of the app's time zone",
  busiestHoursReportSchema,
  reportBusiestHours,
);

export const getOperatorsReport = report(
  "operators",
  "Per operator: conversations replied in, replies, first responses and their median in seconds",
  operatorsReportSchema,
  reportOperators,
);

export const getLeadsReport = report(
  "leads",
  "New leads per day of the app's time zone (operator and channel do not apply)",
  leadsReportSchema,
  reportLeads,
);

const breakdownParams = params.extend({ by: p.oneOf(BREAKDOWN_BY) });

export const getBreakdownReport = endpoint({
  method: "GET",
  path: "/apps/{id}/reports/breakdown",
  reads: "replica",
  summary:
    "Conversations started and closed and the median first response (seconds) over the range, per channel or per " +
    "tag (by); a conversation counts under each tag it has",
  tags: ["Reports"],
  scopes: ["conversations-read"],
  v2: {
    response: breakdownReportSchema,
    params: breakdownParams,
    handler: async (ctx, input: z.infer<typeof breakdownParams>) => ({
      data: await reportBreakdown(ctx, {
        appId: input.id,
        from: input.from,
        to: input.to,
        operator: input.operator,
        channel: input.channel,
        by: input.by,
      }),
    }),
  },
});
