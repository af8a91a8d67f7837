import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((d) => {
    const rel = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === "generated" ? [] : sources(rel);
    return /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) ? [rel] : [];
  });
}

describe("the event log", () => {
  it("has one writer: appendLogCtes holds the product's only INSERT into event_log", () => {
    const inserts = ["lib", "app", "cli", "scripts"].flatMap(sources).flatMap((file) => {
      const n = fs
        .readFileSync(path.join(ROOT, file), "utf8")
        .match(/INSERT\s+INTO\s+event_log\s*\(/gi)?.length;
      return n ? [`${file}: ${n}`] : [];
    });
    expect(inserts).toEqual(["lib/eventlog/append.ts: 1"]);
  });
});
