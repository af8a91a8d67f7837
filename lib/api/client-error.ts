import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { Endpoint } from "./endpoint";
import { ApiError } from "./errors";
import { envelopeRefusal, methodRefusal, rawRefusal } from "./refuse";
import { originForm } from "./rewrite";

/**
 * Requests Node's HTTP parser rejects before any route sees them (a request line or headers over the limit, bytes
 * that are not HTTP, a method it does not know) still get an answer instead of an empty reply.
 */
export function answerClientError(
  catalog: Endpoint[],
  err: NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number },
  socket: Duplex,
): void {
  if (!socket.writable || err.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  if (err.code === "HPE_INVALID_METHOD") {
    // `FOO /api/x HTTP/1.1`: refused as methods Node knows and no route serves are (lib/api/refuse.ts).
    // The packet may start with requests before this one on the connection: its line begins after the last CRLF
    // before where the parser stopped.
    const raw = err.rawPacket ?? Buffer.alloc(0);
    const nl = raw.lastIndexOf("\r\n", err.bytesParsed ?? 0);
    const from = nl < 0 ? 0 : nl + 2;
    const line =
      raw
        .subarray(from, from + 8 * 1024)
        .toString("latin1")
        .split("\r\n", 1)[0] ?? "";
    const [method = "", target = "/"] = line.split(" ");
    socket.end(rawRefusal(methodRefusal(catalog, method, originForm(target))));
    return;
  }
  const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
  const e = tooLarge
    ? new ApiError("PayloadTooLarge", "The request line or headers are too large (64 KB at most).")
    : new ApiError("ValidationError", "The request is not valid HTTP.");
  socket.end(rawRefusal(envelopeRefusal(e)));
}

/** CONNECT (a proxy's tunnel), which Node hands to `connect` listeners and, without one, closes unanswered. */
export function answerConnect(catalog: Endpoint[], req: IncomingMessage, socket: Duplex): void {
  socket.on("error", () => undefined);
  socket.end(rawRefusal(methodRefusal(catalog, "CONNECT", originForm(req.url ?? "/"))));
}
