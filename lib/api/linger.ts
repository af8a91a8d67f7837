import type { IncomingMessage, ServerResponse } from "node:http";

/** What is read and dropped of a body still arriving after its answer, before the connection is closed anyway. */
const DRAIN_BYTES = 64 * 1024 * 1024;
const DRAIN_MS = 5_000;

/**
 * An answer given before the request's body has all arrived (413, 401, a refused request) goes with
 * `Connection: close`, and the rest of the body is then read and dropped, within bounds, before the socket closes:
 * the "lingering close" of nginx and Apache. Closing at once with upload bytes unread makes the kernel reset the
 * connection, and a client still sending (Node's fetch, curl) loses the answer already sent to it.
 * Call before the answer's headers are written.
 */
export function lingerIfUnread(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  res.setHeader("Connection", "close");
  res.once("finish", () => linger(req));
}

function linger(req: IncomingMessage): void {
  const socket = req.socket;
  if (req.complete || socket.destroyed) return;
  // Node half-closes the socket after a `Connection: close` answer and destroys it once that is flushed (net's
  // destroySoon listens for `finish` with the socket's own destroy): that destroy is taken back here, and done
  // when the body has been drained.
  for (const l of socket.listeners("finish")) {
    if (l === socket.destroy) socket.removeListener("finish", l as () => void);
  }
  let left = DRAIN_BYTES;
  const close = () => socket.destroy();
  const timer = setTimeout(close, DRAIN_MS).unref();
  socket.once("close", () => clearTimeout(timer));
  socket.once("end", close);
  req.removeAllListeners("data");
  req.on("data", (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) close();
  });
  req.once("end", close);
  req.resume();
}
