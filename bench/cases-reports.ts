import { latencyCase, type Session, type Target } from "./harness";

/** Issue #19: a year of the dataset's history renders in < 300 ms p50; each series is one request of the page. */
const REPORT_P50: Target = { kind: "p50<", value: 300, source: "#19" };
const SERIES = ["conversations", "response_times", "busiest_hours", "operators", "leads"];

export async function benchReports(s: Session): Promise<void> {
  // The dataset's conversations span the 180 days before its build: a year ending today covers all of them.
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
  const n = Number(process.env.BENCH_N ?? 30);
  for (const series of SERIES) {
    await latencyCase(
      s,
      "reports",
      `reports: ${series} (a year)`,
      () => ({ path: `/api/apps/${s.ds.appId}/reports/${series}?from=${from}&to=${to}`, headers: s.auth }),
      { target: REPORT_P50, n, warmup: 3 },
    );
  }
}
