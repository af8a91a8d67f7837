import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { spoolMultipart, spoolRaw } from "./spool";

async function* chunks(text: string | Buffer, size: number) {
  const buf = Buffer.from(text);
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

const type = (b: string) => `multipart/form-data; boundary=${b}`;
const body = (b: string) =>
  [
    "preamble\r\n",
    `--${b}\r\nContent-Disposition: form-data; name="merge_field"\r\n\r\n$email\r\n`,
    `--${b}\r\nContent-Disposition: form-data; name="file"; filename="u.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    `$email\r\na@b.c\r\n--not-the-boundary\r\n`,
    `\r\n--${b}\r\nContent-Disposition: form-data; name="tags"\r\n\r\nvip\r\n--${b}--\r\nepilogue`,
  ].join("");
const tmp = (name: string) => path.join(os.tmpdir(), `spool-test-${name}-${process.pid}`);

describe("spoolMultipart", () => {
  it.each([1, 5, 64, 100_000])(
    "streams the file part to disk and keeps the fields (chunks of %i bytes)",
    async (size) => {
      const file = tmp(`ok-${size}`);
      const out = await spoolMultipart(chunks(body("XyZ"), size), type("XyZ"), {
        path: file,
        maxFileBytes: 1000,
      });
      expect(out.fields).toEqual({ merge_field: "$email", tags: "vip" });
      expect(out.file).toMatchObject({ filename: "u.csv", field: "file" });
      expect(fs.readFileSync(file, "utf8")).toBe("$email\r\na@b.c\r\n--not-the-boundary\r\n");
      expect(out.file!.size).toBe(35);
      fs.rmSync(file);
    },
  );

  it("refuses an oversized file, a truncated body and a second file, leaving no file behind", async () => {
    const file = tmp("refused");
    await expect(
      spoolMultipart(chunks(body("XyZ"), 8), type("XyZ"), { path: file, maxFileBytes: 10 }),
    ).rejects.toMatchObject({
      kind: "too_large",
      message: "The file is over the limit of 0 MB.",
    });
    expect(fs.existsSync(file)).toBe(false);
    await expect(
      spoolMultipart(chunks(body("XyZ").slice(0, 150), 8), type("XyZ"), { path: file, maxFileBytes: 1000 }),
    ).rejects.toMatchObject({
      kind: "invalid",
      fields: { body: "Malformed multipart body: it ended before the closing boundary." },
    });
    expect(fs.existsSync(file)).toBe(false);
    const second =
      `--b\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\n${"x".repeat(5000)}\r\n` +
      `--b\r\nContent-Disposition: form-data; name="other"; filename="b.csv"\r\n\r\ny\r\n--b--\r\n`;
    await expect(
      spoolMultipart(chunks(second, 100), type("b"), { path: file, maxFileBytes: 10_000 }),
    ).rejects.toMatchObject({
      kind: "invalid",
      fields: { other: "only one file may be uploaded" },
    });
    expect(fs.existsSync(file)).toBe(false);
  });

  it("says what is wrong with the framing", async () => {
    const refused = (t: string, text: string) =>
      spoolMultipart(chunks(text, 7), t, { path: tmp("framing"), maxFileBytes: 1000 }).then(
        () => undefined,
        (e: { fields?: Record<string, string> }) => e.fields,
      );
    expect(await refused("multipart/form-data", "--b--\r\n")).toEqual({
      body: "multipart/form-data needs a boundary",
    });
    expect(await refused(type("b"), `--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--\r\n`)).toEqual({
      body: "Malformed multipart body: a part without a name.",
    });
    expect(await refused(type("b"), `--b\r\nX: ${"h".repeat(17_000)}\r\n\r\nx\r\n--b--\r\n`)).toEqual({
      body: "Malformed multipart body: part headers over 16 KB or malformed.",
    });
    expect(await refused(type("b"), "")).toEqual({
      body: "Malformed multipart body: it ended before the closing boundary.",
    });
  });
});

describe("spoolRaw", () => {
  it("writes the body to the file and stops past the limit", async () => {
    const file = tmp("raw");
    expect(await spoolRaw(chunks("a,b\n1,2\n", 3), { path: file, maxFileBytes: 8 })).toEqual({
      path: file,
      size: 8,
    });
    expect(fs.readFileSync(file, "utf8")).toBe("a,b\n1,2\n");
    await expect(spoolRaw(chunks("a,b\n1,2\n3", 3), { path: file, maxFileBytes: 8 })).rejects.toMatchObject({
      kind: "too_large",
    });
    expect(fs.existsSync(file)).toBe(false);
  });
});
