import { describe, expect, it } from "vitest";
import type { ConversationsReport, OperatorsReport, ResponseTimesReport } from "@/lib/reports/schemas";
import {
  changeOf,
  changeText,
  compareFigures,
  conversationsFigures,
  formatFigure,
  headlineOf,
  isPreviousOf,
  operatorsFigures,
  previousPeriodText,
  responseTimesFigures,
} from "./headlines";

const envelope = { time_zone: "UTC", operator: null, channel: null };

const conversations = (from: string, to: string, started: number[]): ConversationsReport => ({
  ...envelope,
  from,
  to,
  series: started.map((n, i) => ({ day: `2026-03-0${i + 1}`, started: n, closed: 0 })),
});

const times = (median: number | null, average: number | null): ResponseTimesReport => ({
  ...envelope,
  from: "2026-03-08",
  to: "2026-03-14",
  series: [],
  summary: {
    first_response: { count: median === null ? 0 : 5, median, average },
    close: { count: 0, median: null, average: null },
  },
});

describe("changeOf", () => {
  it.for<[number | null, number | null | undefined, ReturnType<typeof changeOf>]>([
    [128, 114, { kind: "up", percent: 12 }],
    [82, 100, { kind: "down", percent: 18 }],
    [0, 40, { kind: "down", percent: 100 }],
    [300, 100, { kind: "up", percent: 200 }],
    [1000, 1001, { kind: "same" }],
    [7, 7, { kind: "same" }],
    // A percentage of nothing would be infinite: said in words instead.
    [5, 0, { kind: "no-previous" }],
    [0, 0, { kind: "no-previous" }],
    [130, null, { kind: "no-previous" }],
    [130, undefined, { kind: "no-previous" }],
    [null, 130, null],
  ])("%s against %s", ([current, previous, want]) => {
    expect(changeOf(current, previous)).toEqual(want);
  });
});

describe("the cards' figures over known reports", () => {
  it("conversations: the range's total started, and its change", () => {
    const now = conversations("2026-03-08", "2026-03-14", [20, 30, 0, 18, 20, 20, 20]);
    const before = conversations("2026-03-01", "2026-03-07", [10, 14, 20, 20, 20, 15, 15]);
    expect(compareFigures(conversationsFigures(now), conversationsFigures(before))).toEqual([
      { label: "conversations started", value: 128, kind: "count", change: { kind: "up", percent: 12 } },
    ]);
  });

  it("times: the server's median and average for the range, not one of the days'", () => {
    const got = compareFigures(
      responseTimesFigures(times(130, 200), "first_response"),
      responseTimesFigures(times(158.5, 100), "first_response"),
    );
    expect(got.map((f) => [f.label, formatFigure(f), f.change])).toEqual([
      ["median first response", "2 min 10 s", { kind: "down", percent: 18 }],
      ["average first response", "3 min 20 s", { kind: "up", percent: 100 }],
    ]);
  });

  it("times without a sample: no data, and nothing to compare", () => {
    const got = compareFigures(responseTimesFigures(times(null, null), "first_response"), undefined);
    expect(got.map((f) => [formatFigure(f), f.change])).toEqual([
      ["no data", null],
      ["no data", null],
    ]);
    const noPrev = compareFigures(
      responseTimesFigures(times(20, 20), "first_response"),
      responseTimesFigures(times(null, null), "first_response"),
    );
    expect(noPrev.map((f) => [formatFigure(f), f.change])).toEqual([
      ["20 s", { kind: "no-previous" }],
      ["20 s", { kind: "no-previous" }],
    ]);
  });

  it("operators: replies add up across operators", () => {
    const row = { first_response_count: 0, first_response_median: null, conversations: 1 };
    const r: OperatorsReport = {
      ...envelope,
      from: "2026-03-08",
      to: "2026-03-14",
      series: [
        { ...row, admin: 1, name: "A", replies: 3 },
        { ...row, admin: 2, name: "B", replies: 4 },
      ],
    };
    expect(operatorsFigures(r)[0]!.value).toBe(7);
  });

  it("counts are grouped for reading", () => {
    expect(formatFigure({ label: "x", value: 12345, kind: "count" }, { locale: "en-US" })).toBe("12,345");
  });
});

describe("headlineOf", () => {
  const now = conversations("2026-03-08", "2026-03-14", [10]);
  it("compares with the previous period's answer", () => {
    const before = conversations("2026-03-01", "2026-03-07", [5]);
    expect(headlineOf(now, before, conversationsFigures)[0]!.change).toEqual({ kind: "up", percent: 100 });
  });
  it("shows no change while the previous answer is another range's (still loading)", () => {
    const stale = conversations("2026-02-06", "2026-03-07", [5]);
    expect(headlineOf(now, stale, conversationsFigures)).toEqual([
      { label: "conversations started", value: 10, kind: "count", change: null },
    ]);
  });
  it("shows nothing before the range's report is in", () => {
    expect(headlineOf(undefined, now, conversationsFigures)).toEqual([]);
  });
});

describe("isPreviousOf", () => {
  const cur = { from: "2026-03-08", to: "2026-03-14", operator: "5", channel: null };
  it("accepts the period of equal length just before, with the same filters", () => {
    expect(isPreviousOf({ ...cur, from: "2026-03-01", to: "2026-03-07", operator: 5 }, cur)).toBe(true);
  });
  it.for<[string, object]>([
    ["a stale answer of another range", { from: "2026-02-07", to: "2026-03-07" }],
    ["another operator", { from: "2026-03-01", to: "2026-03-07", operator: 6 }],
    ["another channel", { from: "2026-03-01", to: "2026-03-07", channel: 2 }],
  ])("refuses %s", ([, patch]) => {
    expect(isPreviousOf({ ...cur, ...patch }, cur)).toBe(false);
  });
});

describe("the change in words", () => {
  it("names the period", () => {
    expect(previousPeriodText("2026-03-08", "2026-03-14")).toBe("the previous 7 days");
    expect(previousPeriodText("2026-03-08", "2026-03-08")).toBe("the previous day");
  });
  it("shows a sign and an arrow, and says up or down", () => {
    const p = "the previous 7 days";
    expect(changeText({ kind: "up", percent: 12 }, p)).toEqual({
      shown: "▲ +12%",
      said: "up 12%",
      rest: " vs the previous 7 days",
    });
    expect(changeText({ kind: "down", percent: 18 }, p)).toEqual({
      shown: "▼ −18%",
      said: "down 18%",
      rest: " vs the previous 7 days",
    });
    expect(changeText({ kind: "same" }, p).said).toBe("no change");
    expect(changeText({ kind: "no-previous" }, p)).toEqual({ shown: "", said: "", rest: "no previous data" });
  });
});
