"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { CsatReport } from "@/lib/csat/schemas";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath } from "./settings-types";
import type { ReportParams } from "./use-report";

/** The CSAT report for a range; the previous range's answer stays on screen while the next one loads. */
export function useCsatReport(appId: string, params: ReportParams) {
  return useQuery({
    queryKey: queryKeys.csat.report(appId, params),
    queryFn: ({ signal }) =>
      api.get<CsatReport>(`${appPath(appId)}/reports/csat`, { query: { ...params }, signal }),
    placeholderData: keepPreviousData,
  });
}
