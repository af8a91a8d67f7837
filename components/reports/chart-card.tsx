"use client";

import { useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { tableCsv, type ReportTable } from "@/lib/client/reports-csv";

interface ChartCardProps {
  id: string;
  title: string;
  description: string;
  /** The range's figures as text, first thing under the title (components/reports/headline.tsx). */
  headline?: ReactNode;
  table: ReportTable;
  loading: boolean;
  error: string | null;
  children: ReactNode;
}

/** A chart with its table view (the keyboard's way through the data) and the same table as a CSV download. */
export function ChartCard({
  id,
  title,
  description,
  headline,
  table,
  loading,
  error,
  children,
}: ChartCardProps) {
  const [view, setView] = useState<"chart" | "table">("chart");
  const { header, rows } = table;
  const download = () => {
    const url = URL.createObjectURL(new Blob([tableCsv(table)], { type: "text/csv" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `${id}.csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <section
      aria-labelledby={`${id}-title`}
      data-testid={`report-${id}`}
      aria-busy={loading}
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
            {title}
          </h2>
          <p className="text-xs text-slate-600">{description}</p>
        </div>
        <div className="flex gap-1" role="group" aria-label={`${title}: view`}>
          <Button
            size="sm"
            variant={view === "chart" ? "secondary" : "ghost"}
            aria-pressed={view === "chart"}
            onClick={() => setView("chart")}
          >
            Chart
          </Button>
          <Button
            size="sm"
            variant={view === "table" ? "secondary" : "ghost"}
            aria-pressed={view === "table"}
            onClick={() => setView("table")}
          >
            Table
          </Button>
          <Button size="sm" variant="ghost" onClick={download} disabled={!rows.length}>
            Download CSV
          </Button>
        </div>
      </div>
      {headline}
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="mt-3">
        {view === "chart" ? (
          children
        ) : (
          <div
            className="max-h-96 overflow-auto rounded border border-slate-200"
            tabIndex={0}
            aria-label={`${title} table`}
          >
            <table className="w-full text-left text-xs tabular-nums" data-testid={`report-${id}-table`}>
              <caption className="sr-only">{title}</caption>
              <thead className="sticky top-0 bg-slate-50 text-slate-700">
                <tr>
                  {header.map((h) => (
                    <th key={h} scope="col" className="px-2 py-1.5 font-medium">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 text-slate-800">
                {rows.map((r, i) => (
                  <tr key={i}>
                    {r.map((c, j) => (
                      <td key={j} className="px-2 py-1">
                        {c ?? ""}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}
