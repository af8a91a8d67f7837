import { parseParamsJson } from "../domain/exact-json";
import { ApiError, validation } from "./errors";
import { MalformedMultipart, readMultipart } from "./multipart";
import type { ApiRequest } from "./api-request";

/** A string from the query or a form, a File from multipart, or any JSON value from a JSON body. */
export type ParamValue = unknown;
export type RawParams = Record<string, ParamValue>;

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

function put(out: RawParams, rawKey: string, value: ParamValue) {
  // `tags[]=a&tags[]=b` and repeated `tags=a&tags=b` both give a list.
  const key = rawKey.endsWith("[]") ? rawKey.slice(0, -2) : rawKey;
  const prev = out[key];
  if (prev === undefined) out[key] = rawKey.endsWith("[]") ? [value] : value;
  else if (Array.isArray(prev)) prev.push(value);
  else out[key] = [prev, value];
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const NEEDS_DECODING = /[%+\x80-\xff]/;
const hex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/**
 * A name or value of a query string or form body, whose characters are bytes (a URL's query is ASCII; a form body
 * is read as latin1): `+` is a space, `%XX` a byte (a `%` without two hex digits stays itself, as in
 * URLSearchParams), and the bytes must be UTF-8. URLSearchParams puts U+FFFD in place of bytes that are not, and
 * the replacement would be stored as if sent: undefined then, for the caller to refuse.
 */
function decodeFormPart(s: string): string | undefined {
  if (!NEEDS_DECODING.test(s)) return s;
  const bytes = new Uint8Array(s.length);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25 && hex(s.charCodeAt(i + 1)) && hex(s.charCodeAt(i + 2))) {
      bytes[n++] = parseInt(s.slice(i + 1, i + 3), 16);
      i += 2;
    } else bytes[n++] = c === 0x2b ? 0x20 : c;
  }
  try {
    return utf8.decode(bytes.subarray(0, n));
  } catch {
    return undefined;
  }
}

/** `application/x-www-form-urlencoded` text (a query string without its `?`, or a form body read as latin1). */
function fromForm(text: string, out: RawParams = {}): RawParams {
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const key = decodeFormPart(eq < 0 ? pair : pair.slice(0, eq));
    if (key === undefined) throw validation({ params: "names must be valid UTF-8" });
    const value = eq < 0 ? "" : decodeFormPart(pair.slice(eq + 1));
    if (value === undefined) throw validation({ [key]: "must be valid UTF-8" });
    put(out, key, value);
  }
  return out;
}

/** The first byte that is not JSON whitespace (nor a UTF-8 byte order mark), or undefined. */
function firstNonSpace(bytes: Buffer): number | undefined {
  const from = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let i = from; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return b;
  }
  return undefined;
}

/** Bodies a server read before making the Request (lib/api/direct.ts): no stream to pull them through. */
const preread = new WeakMap<ApiRequest, Buffer>();

export function withBody<R extends ApiRequest>(req: R, body: Buffer): R {
  preread.set(req, body);
  return req;
}

async function readLimited(req: ApiRequest, limit: number): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw bodyTooLarge(limit);
  const read = preread.get(req);
  if (read) {
    if (read.byteLength > limit) throw bodyTooLarge(limit);
    return read;
  }
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw bodyTooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export function bodyTooLarge(limit: number): ApiError {
  return new ApiError(
    "PayloadTooLarge",
    `The request body is over the limit of ${Math.round(limit / 1024)} KB.`,
  );
}

/**
 * Query string and body (form, multipart or JSON) merged into one bag, the body winning: real clients send POST
 * parameters in the query string, and some send `Content-Type: application/json` with an empty body.
 */
export async function readParams(
  req: ApiRequest,
  url: URL,
  limit = DEFAULT_BODY_LIMIT,
  skipBody = false,
): Promise<RawParams> {
  const out = fromForm(url.search.slice(1));
  if (req.method === "GET" || req.method === "HEAD" || skipBody) return out;
  // Lowercased for matching only: a multipart boundary is case-sensitive and must reach the parser as sent.
  const rawType = req.headers.get("content-type") ?? "";
  const type = rawType.toLowerCase();
  const bytes = await readLimited(req, limit);
  if (bytes.byteLength === 0) return out;
  if (type.startsWith("multipart/form-data")) {
    let parts: [string, string | File][];
    try {
      // The body is already in memory (and within the limit): files become File objects, as FormData makes them.
      parts = await readMultipart(rawType, [bytes], {
        maxFieldBytes: limit,
        onFile: async ({ filename, mimeType, stream }) => {
          // Busboy's chunks are Buffers over plain ArrayBuffers (never shared memory).
          const chunks: Uint8Array<ArrayBuffer>[] = [];
          for await (const chunk of stream as AsyncIterable<Uint8Array<ArrayBuffer>>) chunks.push(chunk);
          return new File(chunks, filename, { type: mimeType });
        },
      });
    } catch (err) {
      if (!(err instanceof MalformedMultipart)) throw err;
      throw validation({ body: "Malformed multipart body." }, "The multipart body could not be read.");
    }
    const fields: RawParams = {};
    for (const [k, v] of parts) put(fields, k, v);
    return { ...out, ...fields };
  }
  const first = firstNonSpace(bytes);
  if (first === undefined) return out;
  if (type.startsWith("application/json") || (!type.includes("form") && (first === 0x7b || first === 0x5b))) {
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      throw validation({ body: "must be valid UTF-8" }, "The JSON body is not valid UTF-8.");
    }
    let parsed: unknown;
    try {
      // Integers beyond 2^53 keep their digits beside the double (props operations read them).
      parsed = parseParamsJson(text);
    } catch (e) {
      throw validation(
        { body: `Malformed JSON: ${(e as Error).message}` },
        "The JSON body could not be parsed.",
      );
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw validation({ body: "The JSON body must be an object of parameters." });
    }
    return { ...out, ...(parsed as RawParams) };
  }
  return { ...out, ...fromForm(bytes.toString("latin1")) };
}

/** One value of a parameter that may have been repeated; the last one wins. */
export function single(v: ParamValue): unknown {
  return Array.isArray(v) ? v[v.length - 1] : v;
}
