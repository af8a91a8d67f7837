import { toJson } from "../domain/json";
import type { ApiError } from "./errors";

/** The text of envelopes made by jsonResponse, for a server that writes it without reading the Response's stream. */
const texts = new WeakMap<Response, string>();

export function jsonResponse(body: unknown, status: number, headers: Headers, idAsString = false): Response {
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  const text = toJson(body, idAsString);
  const res = new Response(text, { status, headers });
  texts.set(res, text);
  return res;
}

/**
 * jsonResponse without the body stream, its text kept beside it for a server that writes it whole (lib/api/direct.ts):
 * a Response's body stream made from the text cost about a tenth of a small request's CPU (bench: event ingest).
 * Whoever reads the body gets it through withEnvelopeBody.
 */
export function envelopeResponse(
  body: unknown,
  status: number,
  headers: Headers,
  idAsString = false,
): Response {
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  const text = toJson(body, idAsString);
  const res = new Response(null, { status, headers });
  texts.set(res, text);
  return res;
}

/** An envelopeResponse with its body, for anyone but the server writing envelopeText; other answers as they are. */
export function withEnvelopeBody(res: Response): Response {
  const text = res.body === null ? texts.get(res) : undefined;
  if (text === undefined) return res;
  const full = new Response(text, { status: res.status, headers: res.headers });
  texts.set(full, text);
  return full;
}

/** The envelope's text when `res` is one jsonResponse (or envelopeResponse) made and nobody has read it. */
export function envelopeText(res: Response): string | undefined {
  return res.bodyUsed ? undefined : texts.get(res);
}

export function errorBody(err: ApiError, requestId: string) {
  return {
    data: {},
    meta: {
      status: err.status,
      error: err.errorName,
      error_message: err.message,
      ...(err.fields ? { error_fields: err.fields } : {}),
      request_id: requestId,
    },
  };
}

export function errorResponse(err: ApiError, requestId: string, headers = new Headers()): Response {
  for (const [k, v] of Object.entries(err.headers ?? {})) headers.set(k, v);
  headers.set("X-Request-Id", requestId);
  return jsonResponse(errorBody(err, requestId), err.status, headers);
}
