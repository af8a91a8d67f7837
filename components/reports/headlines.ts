import { formatCount, type Locale } from "@/lib/client/format";
import { formatDuration } from "@/lib/client/format-duration";
import { previousRange, rangeDays } from "@/lib/client/report-range";
import type {
  BusiestHoursReport,
  ConversationsReport,
  LeadsReport,
  OperatorsReport,
  ResponseTimesReport,
} from "@/lib/reports/schemas";

/** A card's headline figure for the whole range: a count, or a time in seconds (null without a sample). */
export interface Figure {
  label: string;
  value: number | null;
  kind: "count" | "duration";
}

/** How a figure moved against the previous period of the same length. */
export type Change = { kind: "no-previous" } | { kind: "same" } | { kind: "up" | "down"; percent: number };

export type Compared = Figure & { change: Change | null };

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export const conversationsFigures = (r: ConversationsReport): Figure[] => [
  { label: "conversations started", value: sum(r.series.map((d) => d.started)), kind: "count" },
];

export const leadsFigures = (r: LeadsReport): Figure[] => [
  { label: "new leads", value: sum(r.series.map((d) => d.leads)), kind: "count" },
];

export const busiestHoursFigures = (r: BusiestHoursReport): Figure[] => [
  { label: "visitor messages", value: sum(r.series.map((c) => c.messages)), kind: "count" },
];

// Each reply has one author, so the operators' replies add up; their conversations would not (two can share one).
export const operatorsFigures = (r: OperatorsReport): Figure[] => [
  { label: "operator replies", value: sum(r.series.map((o) => o.replies)), kind: "count" },
];

export function responseTimesFigures(r: ResponseTimesReport, which: "first_response" | "close"): Figure[] {
  const s = r.summary[which];
  const what = which === "first_response" ? "first response" : "time to close";
  return [
    { label: `median ${what}`, value: s.median, kind: "duration" },
    { label: `average ${what}`, value: s.average, kind: "duration" },
  ];
}

/**
 * The change from `previous` to `current`, in whole percent of the previous value. Null when there is nothing
 * to compare this period with (no sample now); "no-previous" when a percentage would be infinite or meaningless.
 */
export function changeOf(current: number | null, previous: number | null | undefined): Change | null {
  if (current === null) return null;
  if (previous === null || previous === undefined || previous <= 0) return { kind: "no-previous" };
  const percent = Math.round((Math.abs(current - previous) / previous) * 100);
  if (percent === 0) return { kind: "same" };
  return { kind: current > previous ? "up" : "down", percent };
}

interface Period {
  from: string;
  to: string;
  operator: string | number | bigint | null;
  channel: string | number | bigint | null;
}

/**
 * Whether `previous` answers the period just before `current`, with the same filters. While a new range loads,
 * the cards keep the last answers on screen; comparing two answers of different ranges would show a wrong change.
 */
export function isPreviousOf(previous: Period, current: Period): boolean {
  const want = previousRange(current.from, current.to);
  return (
    previous.from === want.from &&
    previous.to === want.to &&
    String(previous.operator) === String(current.operator) &&
    String(previous.channel) === String(current.channel)
  );
}

/** Figures with their changes, matched by position; without a matching previous answer, no change yet. */
export function compareFigures(current: Figure[], previous: Figure[] | undefined): Compared[] {
  return current.map((f, i) => ({ ...f, change: previous ? changeOf(f.value, previous[i]?.value) : null }));
}

/**
 * A card's headline from its report and the previous period's: none before the report has loaded, and no
 * change until the previous period's answer is the one for this range (isPreviousOf).
 */
export function headlineOf<R extends Period>(
  current: R | undefined,
  previous: R | undefined,
  figures: (r: R) => Figure[],
): Compared[] {
  if (!current) return [];
  const before = previous && isPreviousOf(previous, current) ? figures(previous) : undefined;
  return compareFigures(figures(current), before);
}

export const formatFigure = (f: Figure, where: Locale = {}): string =>
  f.value === null
    ? "no data"
    : f.kind === "duration"
      ? formatDuration(f.value)
      : formatCount(f.value, where);

/** "the previous 7 days", "the previous day". */
export function previousPeriodText(from: string, to: string): string {
  const n = rangeDays(from, to);
  return n === 1 ? "the previous day" : `the previous ${n} days`;
}

/** A change as shown (a sign and an arrow) and as said (in words, since the arrow and colour are not read). */
export function changeText(c: Change, period: string): { shown: string; said: string; rest: string } {
  switch (c.kind) {
    case "no-previous":
      return { shown: "", said: "", rest: "no previous data" };
    case "same":
      return { shown: "±0%", said: "no change", rest: ` vs ${period}` };
    case "up":
      return { shown: `▲ +${c.percent}%`, said: `up ${c.percent}%`, rest: ` vs ${period}` };
    case "down":
      return { shown: `▼ −${c.percent}%`, said: `down ${c.percent}%`, rest: ` vs ${period}` };
  }
}
