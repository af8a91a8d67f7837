import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { envTable } from "./env-table";

const README = path.resolve(import.meta.dirname, "../../README.md");

/** The lines of the first table under README's "## Configuration". */
function readmeTable(): string {
  const lines = fs.readFileSync(README, "utf8").split("\n");
  const from = lines.indexOf("## Configuration");
  expect(from, 'README.md has no "## Configuration" section').toBeGreaterThanOrEqual(0);
  const start = lines.findIndex((l, i) => i > from && l.startsWith("|"));
  const end = lines.findIndex((l, i) => i > start && !l.startsWith("|"));
  return lines.slice(start, end < 0 ? undefined : end).join("\n");
}

describe("README's configuration table", () => {
  it("is the one rendered from lib/config/env-schema.ts", () => {
    const want = envTable();
    expect(readmeTable(), `README.md's table under "## Configuration" should be:\n${want}\n`).toBe(want);
  });
});
