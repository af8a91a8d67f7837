"use client";

import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar, LinePath } from "@visx/shape";
import { axisLabel } from "@/lib/client/format";
import { durationAxis, formatDuration } from "@/lib/client/format-duration";

export interface ChartSeries {
  label: string;
  /** A colour readable on white (the panel's light theme). */
  color: string;
  values: (number | null)[];
}

interface CategoryChartProps {
  /** What each category is (days, operators). */
  categories: string[];
  series: ChartSeries[];
  kind: "bar" | "line";
  /** Values are seconds: the axis is in the unit that reads (its title says which), tooltips as durations. */
  durations?: boolean;
  xLabel: string;
  yLabel: string;
  /** A short summary for screen readers; the table view has the numbers. */
  summary: string;
}

const W = 720;
const H = 240;
const M = { top: 12, right: 12, bottom: 44, left: 56 };

/** Grouped bars or lines over categories, with labelled axes (visx scales and shapes; the axes drawn here). */
export function CategoryChart({
  categories,
  series,
  kind,
  durations = false,
  xLabel,
  yLabel,
  summary,
}: CategoryChartProps) {
  const innerW = W - M.left - M.right;
  const innerH = H - M.top - M.bottom;
  const raw = Math.max(0, ...series.flatMap((s) => s.values.map((v) => v ?? 0)));
  // Plotted in the axis unit, so that its ticks are round minutes or hours rather than odd counts of seconds.
  const axis = durations ? durationAxis(raw) : null;
  const per = axis?.per ?? 1;
  const show = (v: number | null) => (v === null ? "none" : durations ? formatDuration(v) : String(v));
  const max = Math.max(1, raw / per);
  const x = scaleBand<string>({ domain: categories, range: [0, innerW], padding: 0.2 });
  const inner = scaleBand<string>({
    domain: series.map((s) => s.label),
    range: [0, x.bandwidth()],
    padding: 0.1,
  });
  const y = scaleLinear<number>({ domain: [0, max], range: [innerH, 0], nice: true });
  const every = Math.max(1, Math.ceil(categories.length / 10));
  return (
    <figure>
      <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" role="img" aria-label={summary}>
        <Group left={M.left} top={M.top}>
          {/* No more ticks than whole units: a range of one second or one conversation has no 0.2 tick. */}
          {y.ticks(Math.min(5, Math.ceil(max))).map((t) => (
            <g key={t} transform={`translate(0,${y(t)})`}>
              <line x2={innerW} stroke="#e2e8f0" />
              <text x={-6} dy="0.32em" textAnchor="end" fontSize={10} fill="#475569">
                {t}
              </text>
            </g>
          ))}
          {categories.map((c, i) =>
            i % every === 0 ? (
              <text
                key={c}
                x={(x(c) ?? 0) + x.bandwidth() / 2}
                y={innerH + 14}
                textAnchor="middle"
                fontSize={10}
                fill="#475569"
              >
                {axisLabel(c)}
              </text>
            ) : null,
          )}
          <line y1={innerH} y2={innerH} x2={innerW} stroke="#94a3b8" />
          {series.map((s) =>
            kind === "bar" ? (
              s.values.map((v, i) => {
                const c = categories[i]!;
                const h = innerH - y((v ?? 0) / per);
                return (
                  <Bar
                    key={`${s.label}-${c}`}
                    x={(x(c) ?? 0) + (inner(s.label) ?? 0)}
                    y={innerH - h}
                    width={inner.bandwidth()}
                    height={h}
                    fill={s.color}
                  >
                    <title>{`${c}: ${s.label} ${show(v)}`}</title>
                  </Bar>
                );
              })
            ) : (
              <g key={s.label}>
                <LinePath
                  data={s.values.map((v, i) => [i, v] as const).filter((d) => d[1] !== null)}
                  x={(d) => (x(categories[d[0]]!) ?? 0) + x.bandwidth() / 2}
                  y={(d) => y((d[1] ?? 0) / per)}
                  stroke={s.color}
                  strokeWidth={2}
                />
                {s.values.map((v, i) =>
                  v === null ? null : (
                    <circle
                      key={i}
                      cx={(x(categories[i]!) ?? 0) + x.bandwidth() / 2}
                      cy={y(v / per)}
                      r={3}
                      fill={s.color}
                    >
                      <title>{`${categories[i]}: ${s.label} ${show(v)}`}</title>
                    </circle>
                  ),
                )}
              </g>
            ),
          )}
        </Group>
        <text x={M.left + innerW / 2} y={H - 6} textAnchor="middle" fontSize={11} fill="#334155">
          {xLabel}
        </text>
        <text
          transform={`translate(14,${M.top + innerH / 2}) rotate(-90)`}
          textAnchor="middle"
          fontSize={11}
          fill="#334155"
        >
          {axis ? `${yLabel} (${axis.label.toLowerCase()})` : yLabel}
        </text>
      </svg>
      <figcaption className="mt-1 flex flex-wrap gap-3 text-xs text-slate-700">
        {series.map((s) => (
          <span key={s.label} className="inline-flex items-center gap-1">
            <span aria-hidden className="inline-block size-2.5 rounded-sm" style={{ background: s.color }} />
            {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
