import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { invalid, tooLarge } from "../domain/errors";
import { MalformedMultipart, NO_BOUNDARY, readMultipart } from "./multipart";

/**
 * The import's upload spooled to a file on disk, never buffered whole: the one file part of a multipart body
 * (through lib/api/multipart.ts) or a raw CSV body, with backpressure; text fields are kept (each up to a small
 * limit).
 */
export interface Spooled {
  fields: Record<string, string>;
  file?: { path: string; size: number; filename: string; field: string };
}

export interface SpoolOptions {
  /** Where the file part is written. */
  path: string;
  maxFileBytes: number;
  maxFieldBytes?: number;
}

const fileTooLarge = (max: number) =>
  tooLarge(`The file is over the limit of ${Math.round(max / 1024 / 1024)} MB.`);

/** Bytes past `max` end the stream with PayloadTooLarge. */
async function* bounded(source: AsyncIterable<Uint8Array>, max: number, seen: { size: number }) {
  for await (const chunk of source) {
    seen.size += chunk.length;
    if (seen.size > max) throw fileTooLarge(max);
    yield chunk;
  }
}

export async function spoolMultipart(
  body: AsyncIterable<Uint8Array>,
  contentType: string,
  opts: SpoolOptions,
): Promise<Spooled> {
  const out: Spooled = { fields: {} };
  try {
    const parts = await readMultipart(contentType, body, {
      maxFieldBytes: opts.maxFieldBytes ?? 64 * 1024,
      onFile: async (part) => {
        if (out.file) throw invalid({ [part.name]: "only one file may be uploaded" });
        const file = { path: opts.path, size: 0, filename: part.filename, field: part.name };
        out.file = file;
        const seen = { size: 0 };
        await pipeline(
          part.stream,
          (source: AsyncIterable<Uint8Array>) => bounded(source, opts.maxFileBytes, seen),
          fs.createWriteStream(opts.path, { flags: "w" }),
        );
        file.size = seen.size;
      },
    });
    // A field sent twice: the last one counts.
    for (const [name, value] of parts) if (typeof value === "string") out.fields[name] = value;
    return out;
  } catch (err) {
    await fs.promises.rm(opts.path, { force: true });
    if (err instanceof MalformedMultipart)
      throw invalid({ body: err.why === NO_BOUNDARY ? NO_BOUNDARY : err.message });
    throw err;
  }
}

/** A raw (non-multipart) body, such as `Content-Type: text/csv`, spooled to a file the same way. */
export async function spoolRaw(
  body: AsyncIterable<Uint8Array>,
  opts: SpoolOptions,
): Promise<{ path: string; size: number }> {
  const seen = { size: 0 };
  try {
    await pipeline(
      body,
      (source: AsyncIterable<Uint8Array>) => bounded(source, opts.maxFileBytes, seen),
      fs.createWriteStream(opts.path, { flags: "w" }),
    );
    return { path: opts.path, size: seen.size };
  } catch (err) {
    await fs.promises.rm(opts.path, { force: true });
    throw err;
  }
}

/**
 * A web stream as an async iterable (what `Request.body` is), ending in PayloadTooLarge past `maxBytes` in all:
 * the file part is bounded by the spoolers, the preamble, the fields' count and what follows the closing
 * boundary only by this.
 */
export async function* chunksOf(
  stream: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): AsyncGenerator<Uint8Array> {
  if (!stream) return;
  const reader = stream.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > maxBytes) throw fileTooLarge(maxBytes);
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
