"use client";

import type { ReportSeries } from "@/lib/reports/schemas";
import { previousRange } from "./report-range";
import { useReport, type ReportParams } from "./use-report";

/**
 * The same report for the period of equal length just before the range, with the same filters: what a card's
 * change is measured against. The same endpoint and cache entries as the range's own (a week back is next week's
 * previous period).
 */
export function usePreviousReport<S extends ReportSeries>(appId: string, series: S, params: ReportParams) {
  return useReport(appId, series, { ...params, ...previousRange(params.from, params.to) });
}
