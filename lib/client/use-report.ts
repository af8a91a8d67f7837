"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { ReportSeries } from "@/lib/reports/schemas";
import type {
  busiestHoursReportSchema,
  conversationsReportSchema,
  leadsReportSchema,
  operatorsReportSchema,
  responseTimesReportSchema,
} from "@/lib/reports/schemas";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath } from "./settings-types";

export interface ReportParams {
  from: string;
  to: string;
  operator?: string;
  channel?: string;
}

/** Each series' answer, as the server's schemas declare it. */
export interface ReportOf {
  conversations: z.infer<typeof conversationsReportSchema>;
  response_times: z.infer<typeof responseTimesReportSchema>;
  busiest_hours: z.infer<typeof busiestHoursReportSchema>;
  operators: z.infer<typeof operatorsReportSchema>;
  leads: z.infer<typeof leadsReportSchema>;
}

/** One report series for a range; the previous range's answer stays on screen while the next one loads. */
export function useReport<S extends ReportSeries>(appId: string, series: S, params: ReportParams) {
  return useQuery({
    queryKey: queryKeys.reports.series(appId, series, params),
    queryFn: ({ signal }) =>
      api.get<ReportOf[S]>(`${appPath(appId)}/reports/${series}`, { query: { ...params }, signal }),
    placeholderData: keepPreviousData,
  });
}
