import { z } from "zod";
import { id } from "../contract/schemas";

/** The report series (GET /apps/{id}/reports/{series}); browser-safe: the panel's types come from here. */
export const REPORT_SERIES = [
  "conversations",
  "response_times",
  "busiest_hours",
  "operators",
  "leads",
] as const;
export type ReportSeries = (typeof REPORT_SERIES)[number];

/** The longest range one report covers, in days (a leap year and a margin). */
export const MAX_REPORT_DAYS = 400;

const day = z.string().describe("a day of the app's time zone, YYYY-MM-DD");
/** Seconds; null when the day has no sample. */
const stat = z.number().nullable();

const envelope = <T extends z.ZodType>(row: T) =>
  z.strictObject({
    time_zone: z.string(),
    from: day,
    to: day,
    operator: id.nullable(),
    channel: id.nullable(),
    series: z.array(row),
  });

// Medians do not add up over days, so the range's own figure comes from the server, beside the days.
const timeSummary = z
  .strictObject({ count: z.number().int(), median: stat, average: stat })
  .describe("the whole range, in seconds; median and average null without a sample");

export const conversationsReportSchema = envelope(
  z.strictObject({ day, started: z.number().int(), closed: z.number().int() }),
);
export const responseTimesReportSchema = envelope(
  z.strictObject({
    day,
    first_response_count: z.number().int(),
    first_response_median: stat,
    first_response_p90: stat,
    close_count: z.number().int(),
    close_median: stat,
    close_p90: stat,
  }),
).extend({ summary: z.strictObject({ first_response: timeSummary, close: timeSummary }) });
export const busiestHoursReportSchema = envelope(
  z.strictObject({
    weekday: z.number().int().min(1).max(7).describe("ISO weekday: 1 Monday … 7 Sunday"),
    hour: z.number().int().min(0).max(23),
    messages: z.number().int(),
  }),
);
export const operatorsReportSchema = envelope(
  z.strictObject({
    admin: id,
    name: z.string(),
    conversations: z.number().int(),
    replies: z.number().int(),
    first_response_count: z.number().int(),
    first_response_median: stat,
  }),
);
export const leadsReportSchema = envelope(z.strictObject({ day, leads: z.number().int() }));

/** What GET /apps/{id}/reports/breakdown splits the range by. */
export const BREAKDOWN_BY = ["channel", "tag"] as const;
export type BreakdownBy = (typeof BREAKDOWN_BY)[number];
export const breakdownReportSchema = envelope(
  z.strictObject({
    key: z
      .string()
      .nullable()
      .describe(
        "the channel's ID (decimal) or the tag; null: conversations without a channel, or without a tag",
      ),
    name: z.string().describe("the channel's name or the tag; empty for the row of none"),
    started: z.number().int(),
    closed: z.number().int(),
    first_response_count: z.number().int(),
    first_response_median: stat,
  }),
).extend({ by: z.enum(BREAKDOWN_BY) });

export type ConversationsReport = z.infer<typeof conversationsReportSchema>;
export type ResponseTimesReport = z.infer<typeof responseTimesReportSchema>;
export type BusiestHoursReport = z.infer<typeof busiestHoursReportSchema>;
export type OperatorsReport = z.infer<typeof operatorsReportSchema>;
export type LeadsReport = z.infer<typeof leadsReportSchema>;
export type BreakdownReport = z.infer<typeof breakdownReportSchema>;
