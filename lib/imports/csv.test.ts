import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CsvError, parseCsv } from "./csv";
import { spoolMultipart } from "./multipart";
import { mapHeader, toRow } from "./run-import";

async function* chunks(text: string, size: number) {
  const buf = Buffer.from(text);
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

async function all(text: string, size = 3, delimiter = ",") {
  const out: { fields: string[]; line: number }[] = [];
  for await (const r of parseCsv(chunks(text, size), { delimiter }))
    out.push({ fields: r.fields, line: r.line });
  return out;
}

describe("parseCsv", () => {
  it.each([1, 2, 7, 1000])(
    "reads quotes, escaped quotes, line breaks in quotes and CRLF (chunks of %i bytes)",
    async (size) => {
      const text = '\ufeffname,note\r\n"Ann, A.","said ""hi""\r\nthen left"\r\n\r\nBob,\nÉmile,ü€\rlast,"x"';
      expect(await all(text, size)).toEqual([
        { fields: ["name", "note"], line: 1 },
        { fields: ["Ann, A.", 'said "hi"\r\nthen left'], line: 2 },
        { fields: ["Bob", ""], line: 5 },
        { fields: ["Émile", "ü€"], line: 6 },
        { fields: ["last", "x"], line: 7 },
      ]);
    },
  );

  it("uses the delimiter given and keeps stray quotes inside a field as text", async () => {
    expect(await all('a;b\tc;"d;e"\nx"y;z', 4, ";")).toEqual([
      { fields: ["a", "b\tc", "d;e"], line: 1 },
      { fields: ['x"y', "z"], line: 2 },
    ]);
    expect((await all("a\tb\n", 2, "\t"))[0]!.fields).toEqual(["a", "b"]);
  });

  it("fails clearly on an unclosed quote and on giant fields", async () => {
    await expect(all('a,b\n"open,c\n')).rejects.toThrow(CsvError);
    const big = parseCsv(chunks(`"${"x".repeat(100)}`, 10), { maxRecord: 50 });
    await expect(big.next()).rejects.toThrow(/longer than 50/);
  });

  it("numbers lines far into the file, past blank lines and line breaks in quotes, errors included", async () => {
    // The parser runs ahead of its consumer: numbers must come from where a record was parsed, not read.
    const text = '"a\r\nb",x\n\n'.repeat(5000) + 'y,"open\n';
    const seen: number[] = [];
    const err = await (async () => {
      for await (const r of parseCsv(chunks(text, 4096))) seen.push(r.line);
    })().catch((e: unknown) => e);
    expect(seen).toHaveLength(5000);
    expect(seen[4999]).toBe(14998);
    expect(err).toBeInstanceOf(CsvError);
    expect(err).toMatchObject({ line: 15001, message: "a quoted field is not closed" });
    await expect(all("a,b\n" + ",".repeat(1000) + "\n")).rejects.toMatchObject({
      line: 2,
      message: "more than 1000 columns",
    });
  });
});

describe("import rows", () => {
  it("maps the header and refuses bad columns", () => {
    expect(() => mapHeader(["$email", "plan"], "$user_id")).toThrow(/no \$user_id column/);
    expect(() => mapHeader(["$email", "$user_id"], "$email")).toThrow(/needs merge_field=\$user_id/);
    expect(() => mapHeader(["$email", "$email"], "$email")).toThrow(/twice/);
    expect(() => mapHeader(["$email", "$event_1_count"], "$email")).toThrow(/read-only/);
    expect(() => mapHeader(["$email", "$bogus"], "$email")).toThrow(/not a system property/);
    expect(() => mapHeader(["$email", " "], "$email")).toThrow(/no name/);
  });

  it("types cells and reports bad rows", () => {
    const cols = mapHeader(["$user_id", "$email", "$sessions", "plan", "$last_seen"], "$user_id");
    expect(toRow(["u1", "a@b.c", "3", "42", "2024-01-01"], 2, cols, "$user_id")).toEqual({
      line: 2,
      key: "u1",
      system: { $email: "a@b.c", $sessions: 3, $last_seen: new Date("2024-01-01T00:00:00Z") },
      custom: { plan: 42 },
    });
    expect(toRow(["", "a@b.c"], 3, cols, "$user_id")).toBe("no $user_id (the merge field)");
    expect(toRow(["u1", "nope"], 3, cols, "$user_id")).toBe("$email is not an email address");
    expect(toRow(["u1", "", "x"], 3, cols, "$user_id")).toBe("$sessions is an integer property");
    expect(toRow(["u1", "", "", "", "", "extra"], 3, cols, "$user_id")).toMatch(/6 cells/);
  });
});

describe("spoolMultipart", () => {
  const body = (b: string) =>
    [
      "preamble\r\n",
      `--${b}\r\nContent-Disposition: form-data; name="merge_field"\r\n\r\n$email\r\n`,
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename="u.csv"\r\nContent-Type: text/csv\r\n\r\n`,
      `$email\r\na@b.c\r\n--not-the-boundary\r\n`,
      `\r\n--${b}\r\nContent-Disposition: form-data; name="tags"\r\n\r\nvip\r\n--${b}--\r\nepilogue`,
    ].join("");

  it.each([1, 5, 64, 100_000])(
    "streams the file part to disk and keeps the fields (chunks of %i bytes)",
    async (size) => {
      const file = path.join(os.tmpdir(), `mp-test-${size}-${process.pid}`);
      const out = await spoolMultipart(chunks(body("XyZ"), size), "XyZ", { path: file, maxFileBytes: 1000 });
      expect(out.fields).toEqual({ merge_field: "$email", tags: "vip" });
      expect(out.file).toMatchObject({ filename: "u.csv", field: "file" });
      expect(fs.readFileSync(file, "utf8")).toBe("$email\r\na@b.c\r\n--not-the-boundary\r\n");
      expect(out.file!.size).toBe(35);
      fs.rmSync(file);
    },
  );

  it("refuses an oversized file and a truncated body, leaving no file behind", async () => {
    const file = path.join(os.tmpdir(), `mp-test-big-${process.pid}`);
    await expect(
      spoolMultipart(chunks(body("XyZ"), 8), "XyZ", { path: file, maxFileBytes: 10 }),
    ).rejects.toMatchObject({
      kind: "too_large",
    });
    expect(fs.existsSync(file)).toBe(false);
    await expect(
      spoolMultipart(chunks(body("XyZ").slice(0, 150), 8), "XyZ", { path: file, maxFileBytes: 1000 }),
    ).rejects.toMatchObject({
      kind: "invalid",
    });
    expect(fs.existsSync(file)).toBe(false);
  });
});
