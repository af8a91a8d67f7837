import type { ApiError } from "./errors";

/** Every ID is a bigint inside the server; JSON gets numbers, or strings with `id_as_string`. */
export function toJson(body: unknown, idAsString: boolean): string {
  return JSON.stringify(body, (_k, v: unknown) =>
    typeof v === "bigint" ? (idAsString ? v.toString() : Number(v)) : v,
  );
}

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

/** The envelope's text when `res` is one jsonResponse made and nobody has read it. */
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
