import fs from "node:fs";
import { once } from "node:events";
import { invalid, tooLarge } from "../domain/errors";

/**
 * A streaming multipart/form-data reader for uploads too large to buffer: the one file part goes straight to a file
 * on disk (with backpressure), text fields are kept (each up to a small limit). At most one chunk plus a
 * delimiter's length is ever held in memory.
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

const CRLF2 = Buffer.from("\r\n\r\n");
const utf8 = new TextDecoder("utf-8", { fatal: true });

export function boundaryOf(contentType: string): string | undefined {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m?.[1] ?? m?.[2];
}

const fileTooLarge = (max: number) =>
  tooLarge(`The file is over the limit of ${Math.round(max / 1024 / 1024)} MB.`);

const malformed = (why: string) => invalid({ body: `Malformed multipart body: ${why}.` });

function partHeaders(raw: string): { name: string; filename?: string } {
  const disp = raw.split("\r\n").find((l) => /^content-disposition:/i.test(l)) ?? "";
  const name = /\bname="([^"]*)"/i.exec(disp)?.[1] ?? /\bname=([^;\s]+)/i.exec(disp)?.[1];
  if (name === undefined) throw malformed("a part without a name");
  const filename = /\bfilename="([^"]*)"/i.exec(disp)?.[1] ?? /\bfilename=([^;\s]+)/i.exec(disp)?.[1];
  return { name, filename };
}

type Sink =
  | { kind: "file"; ws: fs.WriteStream; size: number }
  | { kind: "field"; name: string; chunks: Buffer[]; size: number };

export async function spoolMultipart(
  body: AsyncIterable<Uint8Array>,
  boundary: string,
  opts: SpoolOptions,
): Promise<Spooled> {
  const maxField = opts.maxFieldBytes ?? 64 * 1024;
  const first = Buffer.from(`--${boundary}`);
  const delim = Buffer.from(`\r\n--${boundary}`);
  const out: Spooled = { fields: {} };
  let buf = Buffer.alloc(0);
  // Widened on purpose: `step` changes it, which the checker cannot see from the loop.
  let state = "preamble" as "preamble" | "after-delim" | "headers" | "body" | "done";
  let sink: Sink | undefined;
  let ws: fs.WriteStream | undefined;

  const write = async (chunk: Buffer) => {
    if (!sink || chunk.length === 0) return;
    sink.size += chunk.length;
    if (sink.kind === "file") {
      if (sink.size > opts.maxFileBytes) throw fileTooLarge(opts.maxFileBytes);
      if (!sink.ws.write(chunk)) await once(sink.ws, "drain");
    } else {
      if (sink.size > maxField) throw invalid({ [sink.name]: `must be at most ${maxField} bytes` });
      sink.chunks.push(chunk);
    }
  };
  const endPart = async () => {
    if (sink?.kind === "field") {
      try {
        out.fields[sink.name] = utf8.decode(Buffer.concat(sink.chunks));
      } catch {
        throw invalid({ [sink.name]: "must be valid UTF-8" });
      }
    }
    if (sink?.kind === "file") {
      const s = sink.ws;
      await new Promise<void>((resolve, reject) =>
        s.end((err?: Error | null) => (err ? reject(err) : resolve())),
      );
      if (out.file) out.file.size = sink.size;
    }
    sink = undefined;
  };

  try {
    const step = async (): Promise<boolean> => {
      if (state === "preamble") {
        const i = buf.indexOf(first);
        if (i < 0) {
          buf = buf.subarray(Math.max(0, buf.length - first.length));
          return false;
        }
        buf = buf.subarray(i + first.length);
        state = "after-delim";
        return true;
      }
      if (state === "after-delim") {
        if (buf.length < 2) return false;
        if (buf[0] === 0x2d && buf[1] === 0x2d) {
          state = "done";
          return false;
        }
        const nl = buf.indexOf("\r\n");
        if (nl < 0) return false;
        buf = buf.subarray(nl + 2);
        state = "headers";
        return true;
      }
      if (state === "headers") {
        const end = buf.indexOf(CRLF2);
        if (end < 0) {
          if (buf.length > 16 * 1024) throw malformed("part headers over 16 KB");
          return false;
        }
        const h = partHeaders(buf.subarray(0, end).toString("utf8"));
        buf = buf.subarray(end + 4);
        if (h.filename !== undefined) {
          if (out.file) throw invalid({ [h.name]: "only one file may be uploaded" });
          ws = fs.createWriteStream(opts.path, { flags: "w" });
          ws.on("error", () => undefined);
          sink = { kind: "file", ws, size: 0 };
          out.file = { path: opts.path, size: 0, filename: h.filename, field: h.name };
        } else {
          sink = { kind: "field", name: h.name, chunks: [], size: 0 };
        }
        state = "body";
        return true;
      }
      if (state === "body") {
        const i = buf.indexOf(delim);
        if (i < 0) {
          // Keep a tail that could be the start of the delimiter; everything before it is part data.
          const keep = Math.min(buf.length, delim.length - 1);
          await write(buf.subarray(0, buf.length - keep));
          buf = buf.subarray(buf.length - keep);
          return false;
        }
        await write(buf.subarray(0, i));
        buf = buf.subarray(i + delim.length);
        await endPart();
        state = "after-delim";
        return true;
      }
      return false;
    };

    for await (const chunk of body) {
      if (state === "done") continue;
      buf = buf.length ? Buffer.concat([buf, chunk]) : Buffer.from(chunk);
      while (await step());
    }
    if (state !== "done") throw malformed("it ended before the closing boundary");
    return out;
  } catch (err) {
    ws?.destroy();
    await fs.promises.rm(opts.path, { force: true });
    throw err;
  }
}

/** A raw (non-multipart) body, such as `Content-Type: text/csv`, spooled to a file the same way. */
export async function spoolRaw(
  body: AsyncIterable<Uint8Array>,
  opts: SpoolOptions,
): Promise<{ path: string; size: number }> {
  const ws = fs.createWriteStream(opts.path, { flags: "w" });
  ws.on("error", () => undefined);
  let size = 0;
  try {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > opts.maxFileBytes) throw fileTooLarge(opts.maxFileBytes);
      if (!ws.write(chunk)) await once(ws, "drain");
    }
    await new Promise<void>((resolve, reject) =>
      ws.end((err?: Error | null) => (err ? reject(err) : resolve())),
    );
    return { path: opts.path, size };
  } catch (err) {
    ws.destroy();
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
