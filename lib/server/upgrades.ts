import http from "node:http";
import type { Socket } from "node:net";

/**
 * A request asking to upgrade (`curl --http2` sends `Upgrade: h2c`) goes to `upgrade` listeners only: socket.io's
 * closes those not its own unanswered, and Next adds one of its own on its first request. Upgrades other than
 * socket.io's are served as plain requests instead, the Upgrade ignored (RFC 9110 7.8), on a connection closed
 * after the answer, Node having let go of its parser. One dispatch in front of the listeners, whoever adds them.
 * Next's own (`/_next/`: the development server's hot reload) stay with Next.
 */
export function serveOtherUpgrades(
  server: http.Server,
  serve: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): void {
  const emit = server.emit.bind(server) as (event: string | symbol, ...args: unknown[]) => boolean;
  server.emit = (event: string | symbol, ...args: unknown[]): boolean => {
    // Other events carry other arguments, or none ("listening").
    if (event !== "upgrade") return emit(event, ...args);
    const [req, socket] = args as [http.IncomingMessage, Socket];
    const url = req.url ?? "/";
    if (url.startsWith("/socket.io/") || url.startsWith("/_next/")) return emit(event, ...args);
    const res = new http.ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.once("finish", () => {
      res.detachSocket(socket);
      socket.destroySoon();
    });
    serve(req, res);
    return true;
  };
}
