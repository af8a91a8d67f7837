import net from "node:net";

/** An answer read off a socket, for requests fetch cannot send (odd methods, targets, Host headers, bytes). */
export interface RawAnswer {
  status: number;
  /** Lowercased names. */
  headers: Record<string, string>;
  body: string;
}

function dechunk(body: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const nl = body.indexOf("\r\n", at);
    if (nl < 0) return undefined;
    const size = parseInt(body.subarray(at, nl).toString("latin1"), 16);
    if (size === 0) return Buffer.concat(parts);
    if (body.length < nl + 2 + size + 2) return undefined;
    parts.push(body.subarray(nl + 2, nl + 2 + size));
    at = nl + 2 + size + 2;
  }
}

/** The first answer in `buf`, once it is whole (`closed`: the server closed the connection after it). */
function parseAnswer(buf: Buffer, head: boolean, closed: boolean): RawAnswer | undefined {
  const end = buf.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const [statusLine = "", ...lines] = buf.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const colon = l.indexOf(":");
    headers[l.slice(0, colon).trim().toLowerCase()] = l.slice(colon + 1).trim();
  }
  const rest = buf.subarray(end + 4);
  let body: Buffer | undefined;
  if (head || status === 204 || status === 304) body = Buffer.alloc(0);
  else if (headers["content-length"] !== undefined) {
    const length = Number(headers["content-length"]);
    body = rest.length >= length ? rest.subarray(0, length) : undefined;
  } else if (/chunked/i.test(headers["transfer-encoding"] ?? "")) body = dechunk(rest);
  else body = closed ? rest : undefined;
  return body && { status, headers, body: body.toString("utf8") };
}

/**
 * Sends `request` as is on a new connection to `baseUrl` and resolves with the first answer, or undefined when
 * the server closes the connection (or `timeoutMs` passes) without one.
 */
export function rawRequest(
  baseUrl: string,
  request: string | Buffer,
  opts: { timeoutMs?: number } = {},
): Promise<RawAnswer | undefined> {
  const { hostname, port } = new URL(baseUrl);
  const head = /^HEAD /.test(typeof request === "string" ? request : request.toString("latin1", 0, 5));
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let buf = Buffer.alloc(0);
    const finish = (closed: boolean) => {
      const answer = parseAnswer(buf, head, closed);
      if (!answer && !closed) return;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => finish(true), opts.timeoutMs ?? 10_000);
    socket.on("data", (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      finish(false);
    });
    socket.on("error", () => finish(true));
    socket.on("close", () => finish(true));
    socket.write(request);
  });
}
