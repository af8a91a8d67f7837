import fs from "node:fs";
import path from "node:path";
import { Session } from "node:inspector/promises";

/**
 * CPU profiles of the server under a case (`BENCH_PROFILE=1`): the product server runs in the bench's process, so
 * the case's measured API run is sampled there (V8's profiler through the inspector); the load comes from a worker
 * thread (throughput) or this thread (latency: its share shows as bench/). Each profile is written to
 * bench/profiles/<case>.cpuprofile (Chrome DevTools opens it) and summarised: self time by module and by function.
 * Under load the absolute times are noisy; the proportions are what to read.
 *
 * `tsx bench/profile.ts <file.cpuprofile>…` summarises profiles made elsewhere (`node --cpu-prof`: a spawned server).
 */
export const PROFILE_DIR = path.join(import.meta.dirname, "profiles");
const ROOT = path.resolve(import.meta.dirname, "..");

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export const profiling = () => process.env.BENCH_PROFILE === "1";

let session: Session | undefined;

/** Starts sampling this process's main thread (BENCH_PROFILE=1 only). */
export async function profileStart(): Promise<void> {
  if (!profiling()) return;
  if (!session) {
    session = new Session();
    session.connect();
    await session.post("Profiler.enable");
    // Finer than the default 1 ms: a request here is a few ms of CPU.
    await session.post("Profiler.setSamplingInterval", { interval: 200 });
  }
  await session.post("Profiler.start");
}

/**
 * Stops the sampling profileStart began, writes the profile and prints its summary of the samples from `fromUs`
 * (process.hrtime's clock, in µs) on: the profiler is started before the load, because starting it stalls the
 * thread (V8 logs every compiled function), and what came before the load is not the case's.
 */
export async function profileStop(label: string, fromUs = 0): Promise<void> {
  if (!profiling() || !session) return;
  const { profile } = (await session.post("Profiler.stop")) as { profile: CpuProfile };
  fs.mkdirSync(PROFILE_DIR, { recursive: true });
  const file = path.join(PROFILE_DIR, `${label.replace(/[^\w.-]+/g, "_").slice(0, 80)}.cpuprofile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  console.log(`  profile ${path.relative(ROOT, file)}`);
  console.log(formatSummary(summarise(profile, fromUs)));
}

/** Where a frame's code lives: a package, a node built-in, one of our files, or V8's own buckets. */
export function moduleOf(f: CallFrame): string {
  const url = f.url;
  if (!url) return f.functionName.startsWith("(") ? f.functionName : "(native)";
  if (url.startsWith("node:")) return url.split("/")[0]!.replace(/^node:internal.*/, "node:internal");
  const p = url.replace(/^file:\/\//, "");
  const nm = p.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const rest = p.slice(nm + "/node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  return p.startsWith(ROOT) ? path.relative(ROOT, p) : p;
}

export interface Summary {
  totalMs: number;
  idleMs: number;
  byModule: { name: string; ms: number }[];
  byFunction: { name: string; ms: number }[];
}

/** Self time per module and per function (idle excluded from the shares), of the samples from `fromUs` on. */
export function summarise(profile: CpuProfile, fromUs = 0): Summary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // A sample's time is the gap to the next one (V8 stamps the delta before each sample).
  let at = profile.startTime;
  for (let i = 0; i < samples.length; i++) {
    at += deltas[i] ?? 0;
    if (at < fromUs) continue;
    const us = deltas[i + 1] ?? 0;
    self.set(samples[i]!, (self.get(samples[i]!) ?? 0) + us);
  }
  const mods = new Map<string, number>();
  const fns = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const n = byId.get(id);
    if (!n) continue;
    total += us;
    if (n.callFrame.functionName === "(idle)") {
      idle += us;
      continue;
    }
    const mod = moduleOf(n.callFrame);
    mods.set(mod, (mods.get(mod) ?? 0) + us);
    const fn = `${n.callFrame.functionName || "(anonymous)"} ${mod}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ""}`;
    fns.set(fn, (fns.get(fn) ?? 0) + us);
  }
  const top = (m: Map<string, number>) =>
    [...m.entries()].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ name, ms: us / 1000 }));
  return { totalMs: total / 1000, idleMs: idle / 1000, byModule: top(mods), byFunction: top(fns) };
}

export function formatSummary(s: Summary, n = 12): string {
  const busy = s.totalMs - s.idleMs;
  const pc = (ms: number) => `${((100 * ms) / Math.max(busy, 1e-9)).toFixed(1).padStart(5)}%`;
  const lines = [
    `    CPU busy ${busy.toFixed(0)} ms of ${s.totalMs.toFixed(0)} ms sampled; self time by module:`,
  ];
  for (const m of s.byModule.slice(0, n)) lines.push(`      ${pc(m.ms)}  ${m.name}`);
  lines.push("    by function:");
  for (const f of s.byFunction.slice(0, n)) lines.push(`      ${pc(f.ms)}  ${f.name}`);
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const file of process.argv.slice(2)) {
    console.log(file);
    console.log(formatSummary(summarise(JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile), 20));
  }
}
