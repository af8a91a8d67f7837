import { ApiError, validation } from "./errors";

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

function fromSearch(search: URLSearchParams, out: RawParams = {}): RawParams {
  for (const [k, v] of search) put(out, k, v);
  return out;
}

/** Bodies a server read before making the Request (lib/api/direct.ts): no stream to pull them through. */
const preread = new WeakMap<Request, Buffer>();

export function withBody(req: Request, body: Buffer): Request {
  preread.set(req, body);
  return req;
}

async function readLimited(req: Request, limit: number): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const read = preread.get(req);
  if (read) {
    if (read.byteLength > limit) throw tooLarge(limit);
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
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function tooLarge(limit: number) {
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
  req: Request,
  url: URL,
  limit = DEFAULT_BODY_LIMIT,
  skipBody = false,
): Promise<RawParams> {
  const out = fromSearch(url.searchParams);
  if (req.method === "GET" || req.method === "HEAD" || skipBody) return out;
  // Lowercased for matching only: a multipart boundary is case-sensitive and must reach the parser as sent.
  const rawType = req.headers.get("content-type") ?? "";
  const type = rawType.toLowerCase();
  const bytes = await readLimited(req, limit);
  if (bytes.byteLength === 0) return out;
  if (type.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(bytes), { headers: { "content-type": rawType } }).formData();
    } catch {
      throw validation({ body: "Malformed multipart body." }, "The multipart body could not be read.");
    }
    const fromForm: RawParams = {};
    for (const [k, v] of form) put(fromForm, k, v);
    return { ...out, ...fromForm };
  }
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  if (type.startsWith("application/json") || (!type.includes("form") && /^\s*[{[]/.test(text))) {
    if (text.trim() === "") return out;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
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
  return { ...out, ...fromSearch(new URLSearchParams(text)) };
}

/** One value of a parameter that may have been repeated; the last one wins. */
export function single(v: ParamValue): unknown {
  return Array.isArray(v) ? v[v.length - 1] : v;
}
