import { toCsv } from "../domain/csv";
import type {
  BusiestHoursReport,
  ConversationsReport,
  LeadsReport,
  OperatorsReport,
  ResponseTimesReport,
} from "../reports/schemas";

export type Cell = string | number | null;

/** A report as its card's table view shows it, and as its CSV download holds it: the same cells. */
export interface ReportTable {
  header: string[];
  rows: Cell[][];
}

/** The table as the file the card downloads, through the one CSV writer (its formula guard included). */
export const tableCsv = (t: ReportTable): string => toCsv(t.header, t.rows);

/** Seconds as the tables show them: "" when there is no sample, else minutes with one decimal. */
export function minutes(secs: number | null): string {
  return secs === null ? "" : (secs / 60).toFixed(1);
}

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
    header: ["Day", first ? "Answered" : "Closes", "Median (min)", "90th percentile (min)"],
    rows: s.map((d) =>
      first
        ? [d.day, d.first_response_count, minutes(d.first_response_median), minutes(d.first_response_p90)]
        : [d.day, d.close_count, minutes(d.close_median), minutes(d.close_p90)],
    ),
  };
}

export const busiestHoursTable = (s: BusiestHoursReport["series"]): ReportTable => ({
  header: ["Weekday", "Hour", "Messages"],
  rows: s.map((c) => [DAY_NAMES[c.weekday - 1]!, c.hour, c.messages]),
});

export const operatorsTable = (s: OperatorsReport["series"]): ReportTable => ({
  header: ["Operator", "Conversations", "Replies", "First responses", "Median first response (min)"],
  rows: s.map((o) => [
    o.name,
    o.conversations,
    o.replies,
    o.first_response_count,
    minutes(o.first_response_median),
  ]),
});

export const leadsTable = (s: LeadsReport["series"]): ReportTable => ({
  header: ["Day", "New leads"],
  rows: s.map((d) => [d.day, d.leads]),
});
