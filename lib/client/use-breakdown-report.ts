"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { BreakdownBy, BreakdownReport } from "@/lib/reports/schemas";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath } from "./settings-types";
import type { ReportParams } from "./use-report";

/** The range split by channel or by tag; the previous answer stays on screen while the next one loads. */
export function useBreakdownReport(appId: string, by: BreakdownBy, params: ReportParams) {
  const query = { ...params, by };
  return useQuery({
    queryKey: queryKeys.reports.series(appId, "breakdown", query),
    queryFn: ({ signal }) =>
      api.get<BreakdownReport>(`${appPath(appId)}/reports/breakdown`, { query, signal }),
    placeholderData: keepPreviousData,
  });
}
