import { describe, expect, it } from "vitest";
import { MalformedMultipart, NO_BOUNDARY, readMultipart, type FilePart } from "./multipart";

async function* chunks(body: Buffer, size: number) {
  for (let i = 0; i < body.length; i += size) yield body.subarray(i, i + size);
}

const type = "multipart/form-data; boundary=Bd";
const field = (name: string, value: string | Buffer, headers = "") =>
  Buffer.concat([
    Buffer.from(`--Bd\r\nContent-Disposition: form-data; name="${name}"\r\n${headers}\r\n`),
    Buffer.from(value),
    Buffer.from("\r\n"),
  ]);
const file = (name: string, filename: string, content: string | Buffer, ct = "text/csv") =>
  Buffer.concat([
    Buffer.from(
      `--Bd\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${ct}\r\n\r\n`,
    ),
    Buffer.from(content),
    Buffer.from("\r\n"),
  ]);
const body = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.from("--Bd--\r\n")]);

/** File parts as `name:size:content` strings. */
async function read(b: Buffer, size: number, maxFieldBytes = 100) {
  return readMultipart(type, chunks(b, size), {
    maxFieldBytes,
    onFile: async (p: FilePart) => {
      const got: Buffer[] = [];
      for await (const c of p.stream as AsyncIterable<Buffer>) got.push(c);
      return `${p.filename}:${p.mimeType}:${Buffer.concat(got).toString()}`;
    },
  });
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => "accepted",
    (e: { fields?: unknown; why?: string }) => e.fields ?? e.why,
  );

describe("readMultipart", () => {
  it.each([1, 7, 100_000])("gives the parts in order, files as made (chunks of %i bytes)", async (size) => {
    const b = body(
      field("a", "1"),
      file("f", "x.csv", "x,y\r\n--Bnot\r\n"),
      field("a", "2"),
      file("g", "../é.png", "PNG", "image/png"),
      field("é", "ü"),
    );
    expect(await read(b, size)).toEqual([
      ["a", "1"],
      ["f", "x.csv:text/csv:x,y\r\n--Bnot\r\n"],
      ["a", "2"],
      ["g", "../é.png:image/png:PNG"],
      ["é", "ü"],
    ]);
  });

  it('takes a browser\'s empty file input (filename="", octet-stream) for a file named ""', async () => {
    const b = body(file("f", "", "", "application/octet-stream"));
    expect(await read(b, 5)).toEqual([["f", ":application/octet-stream:"]]);
  });

  it("keeps a field of the limit and refuses one byte more, naming it", async () => {
    expect(await read(body(field("t", "x".repeat(100))), 9)).toEqual([["t", "x".repeat(100)]]);
    expect(await refusal(read(body(field("t", "x".repeat(101))), 9))).toEqual({
      t: "must be at most 100 bytes",
    });
  });

  it("refuses names and values that are not UTF-8 and keeps a U+FFFD that was sent, far into the body", async () => {
    // 200 KB of file before the fields, in small chunks: the bytes kept for the check move along, and a field
    // spread over many chunks is still found in them.
    const big = file("f", "big.csv", "z".repeat(200 * 1024));
    const value = "a\uFFFD" + "v".repeat(90);
    const ok = body(big, field("t", value), field("u\uFFFD", "b"));
    for (const size of [7, 100_000]) {
      expect((await read(ok, size)).slice(1)).toEqual([
        ["t", value],
        ["u\uFFFD", "b"],
      ]);
    }
    const badName = Buffer.from(
      '--Bd\r\nContent-Disposition: form-data; name="u\xff"\r\n\r\nb\r\n',
      "latin1",
    );
    for (const [before, size] of [
      [big, 1000],
      [big, 10_000_000],
      [field("s", "x"), 1],
    ] as const) {
      expect(await refusal(read(body(before, field("t", Buffer.from([0x61, 0xff]))), size))).toEqual({
        t: "must be valid UTF-8",
      });
      expect(await refusal(read(body(before, badName), size))).toEqual({
        params: "names must be valid UTF-8",
      });
    }
  });

  it("says why a body does not frame", async () => {
    const noBoundary = readMultipart("multipart/form-data", chunks(Buffer.from("--x--"), 1), {
      maxFieldBytes: 10,
      onFile: async () => undefined,
    });
    await expect(noBoundary).rejects.toEqual(new MalformedMultipart(NO_BOUNDARY));
    const b = body(field("a", "1"));
    expect(await refusal(read(b.subarray(0, b.length - 5), 3))).toBe("it ended before the closing boundary");
    expect(
      await refusal(read(Buffer.from("--Bd\r\nContent-Disposition: form-data\r\n\r\nx\r\n--Bd--"), 3)),
    ).toBe("a part without a name");
  });

  it("ends on a consumer's or the body's failure only once every file consumer has settled", async () => {
    const b = body(file("f", "a.csv", "y".repeat(100_000)), field("a", "1"));
    const settled: string[] = [];
    const failing = readMultipart(type, chunks(b, 1000), {
      maxFieldBytes: 10,
      onFile: async (p) => {
        p.stream.resume();
        await new Promise((r) => setTimeout(r, 20));
        settled.push("consumer");
        throw new Error("disk full");
      },
    });
    await expect(failing).rejects.toThrow("disk full");
    expect(settled).toEqual(["consumer"]);

    async function* cut() {
      yield* chunks(b.subarray(0, 50_000), 1000);
      throw new Error("client went away");
    }
    const consumed = readMultipart(type, cut(), {
      maxFieldBytes: 10,
      onFile: async (p) => {
        try {
          for await (const c of p.stream) void c;
        } finally {
          settled.push("stream ended");
        }
      },
    });
    await expect(consumed).rejects.toThrow("client went away");
    expect(settled).toEqual(["consumer", "stream ended"]);
  });
});
