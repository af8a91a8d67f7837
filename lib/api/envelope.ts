import { toJson } from "../domain/json";
import { AnswerHeaders, Envelope, toResponse } from "./answer";
import type { ApiError } from "./errors";

/** The API's JSON answer: its text made once, written whole by the server (lib/api/direct.ts). */
export function envelope(
  body: unknown,
  status: number,
  headers: AnswerHeaders,
  idAsString = false,
): Envelope {
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  return new Envelope(status, headers, toJson(body, idAsString));
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

export function errorEnvelope(err: ApiError, requestId: string, headers = new AnswerHeaders()): Envelope {
  for (const [k, v] of Object.entries(err.headers ?? {})) headers.set(k, v);
  headers.set("X-Request-Id", requestId);
  return envelope(errorBody(err, requestId), err.status, headers);
}

/** An error envelope as a web Response: answers made outside an endpoint (404, 405) for Next's route too. */
export function errorResponse(err: ApiError, requestId: string, headers = new AnswerHeaders()): Response {
  return toResponse(errorEnvelope(err, requestId, headers));
}
