"use client";

import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar } from "@visx/shape";

const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const HOURS = Array.from({ length: 24 }, (_, h) => h);
const W = 720;
const H = 220;
const M = { top: 8, right: 8, bottom: 36, left: 44 };

/** Weekday × hour counts as shaded cells (light to indigo), hour and weekday axes labelled. */
export function Heatmap({
  cells,
  summary,
}: {
  cells: { weekday: number; hour: number; messages: number }[];
  summary: string;
}) {
  const innerW = W - M.left - M.right;
  const innerH = H - M.top - M.bottom;
  const x = scaleBand<number>({ domain: HOURS, range: [0, innerW], padding: 0.06 });
  const y = scaleBand<number>({ domain: [1, 2, 3, 4, 5, 6, 7], range: [0, innerH], padding: 0.06 });
  const max = Math.max(1, ...cells.map((c) => c.messages));
  const shade = scaleLinear<string>({ domain: [0, max], range: ["#f1f5f9", "#3730a3"] });
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" role="img" aria-label={summary}>
      <Group left={M.left} top={M.top}>
        {cells.map((c) => (
          <Bar
            key={`${c.weekday}-${c.hour}`}
            x={x(c.hour) ?? 0}
            y={y(c.weekday) ?? 0}
            width={x.bandwidth()}
            height={y.bandwidth()}
            rx={2}
            fill={shade(c.messages)}
          >
            <title>{`${DAYS[c.weekday - 1]} ${c.hour}:00: ${c.messages} messages`}</title>
          </Bar>
        ))}
        {DAYS.map((d, i) => (
          <text
            key={d}
            x={-6}
            y={(y(i + 1) ?? 0) + y.bandwidth() / 2}
            dy="0.32em"
            textAnchor="end"
            fontSize={10}
            fill="#475569"
          >
            {d}
          </text>
        ))}
        {HOURS.filter((h) => h % 3 === 0).map((h) => (
          <text
            key={h}
            x={(x(h) ?? 0) + x.bandwidth() / 2}
            y={innerH + 12}
            textAnchor="middle"
            fontSize={10}
            fill="#475569"
          >
            {h}
          </text>
        ))}
      </Group>
      <text x={M.left + innerW / 2} y={H - 4} textAnchor="middle" fontSize={11} fill="#334155">
        Hour of the day (app time zone)
      </text>
    </svg>
  );
}
