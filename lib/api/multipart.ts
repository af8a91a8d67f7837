import type { Readable } from "node:stream";
import busboy from "busboy";
import { validation } from "./errors";

/**
 * The one multipart/form-data reader (busboy): request parameters (lib/api/params.ts) and the CSV import
 * (lib/imports/spool.ts) both read their multipart bodies through it.
 */

/** A body busboy cannot frame; `why` says what was wrong, for callers that tell the client. */
export class MalformedMultipart extends Error {
  constructor(readonly why: string) {
    super(`Malformed multipart body: ${why}.`);
  }
}

export const NO_BOUNDARY = "multipart/form-data needs a boundary";

/** A file part (one with a filename, or typed application/octet-stream): a stream to consume, or fail the read. */
export interface FilePart {
  name: string;
  filename: string;
  mimeType: string;
  stream: Readable;
}

export interface ReadOptions<T> {
  /** Text fields longer than this are refused, naming the field. */
  maxFieldBytes: number;
  /** Takes a file part; a rejection ends the read with its error. Its value takes the part's place in the result. */
  onFile(part: FilePart): Promise<T>;
}

const DROPPED = Buffer.alloc(0);

function whyOf(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  if (/^Unexpected end of (form|file)/.test(m)) return "it ended before the closing boundary";
  if (m === "Malformed part header") return "part headers over 16 KB or malformed";
  return m;
}

/**
 * The parts of a multipart body in order: text fields as strings, file parts as what `onFile` made of them. The
 * body is pushed through one chunk at a time, each written only once busboy is done with the one before (a file
 * part's consumer slows the read down instead of it being buffered).
 *
 * Names and values must be UTF-8. Busboy decodes them with U+FFFD in place of bytes that are not, and a real U+FFFD
 * must stay: a value showing one is refused when its UTF-8 is nowhere in the bytes read lately. Those reach back
 * a field's limit plus 64 KB before the chunk being read, past the start of any field or name busboy can report
 * in it (a field is at most its limit, a part's headers at most 16 KB).
 */
export async function readMultipart<T>(
  contentType: string,
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  opts: ReadOptions<T>,
): Promise<[string, string | T][]> {
  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: { "content-type": contentType },
      // Filenames as sent: what is safe to keep of them is decided where they are stored.
      preservePath: true,
      // Browsers send filenames as raw UTF-8 (busboy's default reads them as latin1).
      defParamCharset: "utf8",
      limits: { fieldSize: opts.maxFieldBytes + 1 },
    });
  } catch {
    throw new MalformedMultipart(NO_BOUNDARY);
  }
  const parts: [string, string | T][] = [];
  const pending: Promise<unknown>[] = [];
  let failure: Error | undefined;
  const fail = (err: unknown) => {
    failure ??= err instanceof Error ? err : new Error(String(err));
    bb.destroy();
  };

  // The chunks read lately, from `recent[head]` on. A chunk dropped is let go at once; the array is cut down only
  // once half of it is dropped, so a client sending tiny chunks does not make each one cost a shift of all.
  let recent: Buffer[] = [];
  let head = 0;
  let recentBytes = 0;
  const keep = opts.maxFieldBytes + 64 * 1024;
  const sent = (s: string) =>
    !s.includes("\uFFFD") || Buffer.concat(recent.slice(head), recentBytes).includes(Buffer.from(s));

  const tooLong = (name: string) => validation({ [name]: `must be at most ${opts.maxFieldBytes} bytes` });
  const field = (name: string | undefined): name is string => {
    if (name === undefined) fail(new MalformedMultipart("a part without a name"));
    else if (!sent(name)) fail(validation({ params: "names must be valid UTF-8" }));
    return failure === undefined;
  };

  bb.on("field", (name, value, info) => {
    if (!field(name)) return;
    if (info.valueTruncated) return fail(tooLong(name));
    if (!sent(value)) return fail(validation({ [name]: "must be valid UTF-8" }));
    parts.push([name, value]);
  });

  bb.on("file", (name, stream, info) => {
    if (!field(name)) return void stream.resume();
    const at = parts.push([name, ""]) - 1;
    // Busboy reads `filename=""` (a browser's empty file input) as no filename, and takes that part for a file by
    // its type (application/octet-stream): a file named "", as browsers meant.
    const part = { name, filename: info.filename ?? "", mimeType: info.mimeType, stream };
    pending.push(opts.onFile(part).then((made) => void (parts[at] = [name, made]), fail));
  });

  // After a failure of ours, destroying busboy makes it report the body as unfinished: the first failure stands.
  bb.on("error", (err) => fail(new MalformedMultipart(whyOf(err))));
  const closed = new Promise<void>((resolve) => bb.once("close", resolve));

  try {
    for await (const chunk of body) {
      const buf = Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      recent.push(buf);
      recentBytes += buf.length;
      await Promise.race([new Promise<void>((resolve) => bb.write(buf, () => resolve())), closed]);
      if (failure !== undefined) break;
      while (recent.length - head > 1 && recentBytes - recent[head]!.length >= keep) {
        recentBytes -= recent[head]!.length;
        recent[head++] = DROPPED;
      }
      if (head * 2 > recent.length) [recent, head] = [recent.slice(head), 0];
    }
    if (failure === undefined) bb.end();
  } catch (err) {
    fail(err);
  }
  await closed;
  // Every file part's consumer has settled (its file closed) before the caller sees the outcome.
  await Promise.allSettled(pending);
  if (failure !== undefined) throw failure;
  return parts;
}
