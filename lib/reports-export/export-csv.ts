import type { Ctx } from "../auth/context";
import { csvLine } from "../domain/csv";
import { reportCsat } from "../csat/report";
import { reportBreakdown } from "../reports/breakdown";
import { reportBusiestHours } from "../reports/busiest-hours";
import { reportConversations, reportLeads } from "../reports/conversations-report";
import { reportOperators } from "../reports/operators-report";
import type { ReportInput } from "../reports/range";
import { reportResponseTimes } from "../reports/response-times";

/**
 * Every report of the Reports page for one range, as one CSV table with a `report` column: a spreadsheet opens a
 * CSV as a single sheet, and one header keeps its filters, sorting and pivots working over every row, where
 * sections with headers of their own would be text to it. Each row fills the columns of its report and leaves
 * the others empty. Durations are numbers of seconds (the unit in the column's name), shares between 0 and 1.
 */
export const EXPORT_COLUMNS = [
  "report",
  "day",
  "weekday",
  "hour",
  "key",
  "name",
  "started",
  "closed",
  "leads",
  "messages",
  "conversations",
  "replies",
  "first_responses",
  "first_response_median_seconds",
  "first_response_p90_seconds",
  "first_response_average_seconds",
  "closes",
  "close_median_seconds",
  "close_p90_seconds",
  "close_average_seconds",
  "requests",
  "ratings",
  "good",
  "score",
  "response_rate",
  "rating",
  "rated_at",
  "comment",
] as const;
type Column = (typeof EXPORT_COLUMNS)[number];
type Row = Partial<Record<Column, unknown>>;

/** The `report` values, in the order the file holds them. */
export const EXPORT_REPORTS = [
  "range",
  "conversations",
  "response_times",
  "response_times_range",
  "busiest_hours",
  "operators",
  "leads",
  "csat",
  "csat_range",
  "csat_operators",
  "csat_comments",
  "breakdown_channel",
  "breakdown_tag",
] as const;

export async function exportReportsCsv(ctx: Ctx, input: ReportInput): Promise<string> {
  // One after the other: each is a statement or two on the replica, and the file is whole or not at all.
  const conversations = await reportConversations(ctx, input);
  const times = await reportResponseTimes(ctx, input);
  const hours = await reportBusiestHours(ctx, input);
  const operators = await reportOperators(ctx, input);
  const leads = await reportLeads(ctx, input);
  const csat = await reportCsat(ctx, input);
  const byChannel = await reportBreakdown(ctx, { ...input, by: "channel" });
  const byTag = await reportBreakdown(ctx, { ...input, by: "tag" });
  const rows: Row[] = [
    {
      report: "range",
      day: conversations.from,
      name: `${conversations.from} to ${conversations.to}, days in ${conversations.time_zone}`,
      key: conversations.time_zone,
    },
    ...conversations.series.map((d) => ({ report: "conversations", ...d })),
    ...times.series.map((d) => ({
      report: "response_times",
      day: d.day,
      first_responses: d.first_response_count,
      first_response_median_seconds: d.first_response_median,
      first_response_p90_seconds: d.first_response_p90,
      closes: d.close_count,
      close_median_seconds: d.close_median,
      close_p90_seconds: d.close_p90,
    })),
    {
      report: "response_times_range",
      first_responses: times.summary.first_response.count,
      first_response_median_seconds: times.summary.first_response.median,
      first_response_average_seconds: times.summary.first_response.average,
      closes: times.summary.close.count,
      close_median_seconds: times.summary.close.median,
      close_average_seconds: times.summary.close.average,
    },
    ...hours.series.map((c) => ({ report: "busiest_hours", ...c })),
    ...operators.series.map((o) => ({
      report: "operators",
      key: o.admin,
      name: o.name,
      conversations: o.conversations,
      replies: o.replies,
      first_responses: o.first_response_count,
      first_response_median_seconds: o.first_response_median,
    })),
    ...leads.series.map((d) => ({ report: "leads", ...d })),
    ...csat.series.map((d) => ({ report: "csat", ...d })),
    {
      report: "csat_range",
      requests: csat.requests,
      ratings: csat.ratings,
      good: csat.good,
      score: csat.score,
      response_rate: csat.response_rate,
    },
    ...csat.operators.map((o) => ({
      report: "csat_operators",
      key: o.admin,
      name: o.name,
      requests: o.requests,
      ratings: o.ratings,
      good: o.good,
      score: o.score,
    })),
    ...csat.comments.map((c) => ({
      report: "csat_comments",
      key: c.conversation,
      name: c.user.name ?? c.user.email ?? "",
      rating: c.rating,
      rated_at: new Date(Number(c.rated) * 1000).toISOString(),
      comment: c.comment,
    })),
    ...[byChannel, byTag].flatMap((b) =>
      b.series.map((x) => ({
        report: `breakdown_${b.by}`,
        key: x.key,
        name: x.name,
        started: x.started,
        closed: x.closed,
        first_responses: x.first_response_count,
        first_response_median_seconds: x.first_response_median,
      })),
    ),
  ];
  return csvLine([...EXPORT_COLUMNS]) + rows.map((r) => csvLine(EXPORT_COLUMNS.map((c) => r[c]))).join("");
}
