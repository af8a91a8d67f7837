import { toCsv } from "../domain/csv";
import { durationCell } from "./format-duration";
import type {
  BreakdownBy,
  BreakdownReport,
  BusiestHoursReport,
  ConversationsReport,
  LeadsReport,
  OperatorsReport,
  ResponseTimesReport,
} from "../reports/schemas";

export type Cell = string | number | null;

/**
 * A report as its card's table view shows it, and as its CSV download holds it: the same cells, durations
 * included ("2 min 10 s", through the one formatter), so that the file reads as the page does.
 */
export interface ReportTable {
  header: string[];
  rows: Cell[][];
}

/** The table as the file the card downloads, through the one CSV writer (its formula guard included). */
export const tableCsv = (t: ReportTable): string => toCsv(t.header, t.rows);

export const DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

export const conversationsTable = (s: ConversationsReport["series"]): ReportTable => ({
  header: ["Day", "Started", "Closed"],
  rows: s.map((d) => [d.day, d.started, d.closed]),
});

export function responseTimesTable(
  s: ResponseTimesReport["series"],
  which: "first_response" | "close",
): ReportTable {
  const first = which === "first_response";
  return {
    header: ["Day", first ? "Answered" : "Closes", "Median", "90th percentile"],
    rows: s.map((d) =>
      first
        ? [
            d.day,
            d.first_response_count,
            durationCell(d.first_response_median),
            durationCell(d.first_response_p90),
          ]
        : [d.day, d.close_count, durationCell(d.close_median), durationCell(d.close_p90)],
    ),
  };
}

export const busiestHoursTable = (s: BusiestHoursReport["series"]): ReportTable => ({
  header: ["Weekday", "Hour", "Messages"],
  rows: s.map((c) => [DAY_NAMES[c.weekday - 1]!, c.hour, c.messages]),
});

export const operatorsTable = (s: OperatorsReport["series"]): ReportTable => ({
  header: ["Operator", "Conversations", "Replies", "First responses", "Median first response"],
  rows: s.map((o) => [
    o.name,
    o.conversations,
    o.replies,
    o.first_response_count,
    durationCell(o.first_response_median),
  ]),
});

export const leadsTable = (s: LeadsReport["series"]): ReportTable => ({
  header: ["Day", "New leads"],
  rows: s.map((d) => [d.day, d.leads]),
});

export const breakdownTable = (s: BreakdownReport["series"], by: BreakdownBy): ReportTable => ({
  header: [
    by === "channel" ? "Channel" : "Tag",
    "Started",
    "Closed",
    "First responses",
    "Median first response",
  ],
  rows: s.map((x) => [
    x.key === null ? (by === "channel" ? "No channel" : "No tag") : x.name,
    x.started,
    x.closed,
    x.first_response_count,
    durationCell(x.first_response_median),
  ]),
});
