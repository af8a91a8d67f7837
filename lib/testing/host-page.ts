import http from "node:http";

/**
 * A customer's site for the messenger's browser tests and benchmark: pages served from another origin (its own
 * port of 127.0.0.1) than the server that serves /messenger.js.
 */
export interface HostSite {
  url: string;
  close(): Promise<void>;
}

/** The site's inline stubs, as a site writes them before the loader (Relay's, and carrotquest's queue). */
export const STUBS =
  "window.Relay=window.Relay||function(){(Relay.q=Relay.q||[]).push(arguments)};" +
  "(function(){if(window.carrotquest)return;window.carrotquestasync=[];var c=window.carrotquest={};" +
  '["connect","auth","identify","track","open","onReady","addCallback","removeCallback"].forEach(function(m){' +
  "c[m]=function(){carrotquestasync.push(m,arguments)}})})();";

/** `calls` run right after the stubs, before the loader can have run: they are queued. */
export function hostPage(opts: {
  origin: string;
  key?: string;
  head?: string;
  calls?: string;
  body?: string;
}): string {
  const key = opts.key === undefined ? "" : ` data-key="${opts.key}"`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A customer's shop</title>` +
    `${opts.head ?? ""}<script>${STUBS}${opts.calls ?? ""}</script>` +
    `<script async src="${opts.origin}/messenger.js"${key}></script></head>` +
    `<body><h1>A customer's shop</h1><p><a href="#top">A link</a></p>${opts.body ?? ""}</body></html>`
  );
}

/** Serves each path's HTML; anything else is a 404. */
export async function startHostSite(pages: Record<string, string>): Promise<HostSite> {
  const server = http.createServer((req, res) => {
    const page = pages[(req.url ?? "/").split("?")[0]!];
    // No console error for the favicon a browser asks for.
    if (req.url === "/favicon.ico") return void res.writeHead(204).end();
    res.writeHead(page === undefined ? 404 : 200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(page ?? "not found");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
