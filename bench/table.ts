import type { Figure, Target } from "./harness";

/** The one table `npm run bench` prints: every figure beside its baseline and target. */
export function met(f: Figure): boolean | undefined {
  const t = f.target;
  if (!t || f.n === 0) return undefined;
  if (t.kind === "p50<") return f.p50 < t.value;
  if (t.kind === "p99<") return f.p99 < t.value;
  if (t.kind === "rps>=") return f.rps >= t.value;
  if (t.kind === "rps>=base×") return f.base && f.base.rps > 0 ? f.rps >= t.value * f.base.rps : undefined;
  const growth = f.extra?.rssGrowthMb;
  return typeof growth === "number" ? growth < t.value : undefined;
}

export function ratio(f: Figure): number | undefined {
  return f.base && f.base.n > 0 && f.n > 0 ? f.p50 / f.base.p50 : undefined;
}

function targetText(t: Target | undefined): string {
  if (!t) return "";
  if (t.kind === "rps>=") return `≥ ${t.value}/s`;
  if (t.kind === "rps>=base×") return `≥ ${Math.round(t.value * 100)}% of baseline /s`;
  if (t.kind === "rss+<") return `RSS +< ${t.value} MB`;
  return `${t.kind.slice(0, 3)} < ${t.value} ms`;
}

const ms = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? "" : x.toFixed(1));
const perSec = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? "" : String(Math.round(x)));

export function rows(figures: Figure[]) {
  return figures.map((f) => {
    const r = ratio(f);
    const m = met(f);
    return {
      case: f.case,
      N: f.n,
      "p50 ms": ms(f.p50),
      "p99 ms": ms(f.p99),
      "req/s": perSec(f.rps),
      "base p50": ms(f.base?.p50),
      "base req/s": perSec(f.base?.rps),
      ratio: r === undefined ? "" : `${r.toFixed(1)}×`,
      target: targetText(f.target),
      "met?": m === undefined ? "" : m ? "yes" : "NO",
      ...(f.failed || f.base?.failed ? { failed: `${f.failed}/${f.base?.failed ?? 0}` } : {}),
    };
  });
}

export function printTable(figures: Figure[]): void {
  const r = rows(figures);
  const cols = [...new Set(r.flatMap((x) => Object.keys(x)))];
  const cell = (x: Record<string, string | number>, c: string) => String(x[c] ?? "");
  const width = cols.map((c) => Math.max(c.length, ...r.map((x) => cell(x, c).length)));
  const line = (vals: string[]) =>
    vals.map((v, i) => (i === 0 ? v.padEnd(width[i]!) : v.padStart(width[i]!))).join("  ");
  console.log(line(cols));
  console.log(width.map((w) => "-".repeat(w)).join("  "));
  for (const x of r) console.log(line(cols.map((c) => cell(x, c))));
}
