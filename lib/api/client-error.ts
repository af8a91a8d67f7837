import crypto from "node:crypto";
import type { Duplex } from "node:stream";
import { errorBody } from "./envelope";
import { ApiError } from "./errors";

/**
 * Requests Node's HTTP parser rejects before any route sees them (a request line or headers over the limit, bytes
 * that are not HTTP) still get the envelope instead of an empty reply.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || err.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
  const e = tooLarge
    ? new ApiError("PayloadTooLarge", "The request line or headers are too large (64 KB at most).")
    : new ApiError("ValidationError", "The request is not valid HTTP.");
  const body = JSON.stringify(errorBody(e, crypto.randomBytes(8).toString("hex")));
  socket.end(
    `HTTP/1.1 ${e.status} ${tooLarge ? "Payload Too Large" : "Bad Request"}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}
