import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import type { Endpoint, Method, RouteContext } from "./endpoint";
import { NodeRequest, type ApiRequest } from "./api-request";
import { matchRoute, METHODS } from "./route-table";
import { Envelope, type Served } from "./answer";
import { optionsHeaders, servePreflight } from "./cors";
import { lingerIfUnread } from "./linger";
import { notFound } from "./not-found";
import { bodyTooLarge, DEFAULT_BODY_LIMIT, withBody } from "./params";
import { linkNote, noteOf } from "../server/request-note";

// The one router of /api: the endpoint catalog's paths, matched in route-table.ts. The catalog is handed in by the
// composition (lib/compose), so that this generic edge imports no domain. The server serves a request straight from
// it, in front of Next: Next's routing costs about 1 ms of CPU per request here, more than most endpoints' own work
// (docs/decisions.md). Under `next dev` (and HEAD, OPTIONS) the request goes through Next to its one catch-all route
// file, app/api/[...path]/route.ts, which hands it back to this same table (nextHandlers), so that no path can be
// served in one mode and not in the other.

/**
 * The body, read here when its declared length is within the endpoint's limit: endpoint() then takes the bytes
 * as they are (params.ts withBody) rather than through a web stream, which cost more than most requests' own work.
 * Anything else (no length, over the limit, endpoints that stream their body) goes as a stream, as before.
 */
function bodyToRead(req: IncomingMessage, e: Endpoint | undefined, limit: number): number | undefined {
  if (!e || e.spec.rawBody) return undefined;
  const declared = Number(req.headers["content-length"] ?? "NaN");
  return Number.isInteger(declared) && declared <= limit ? declared : undefined;
}

function readAll(req: IncomingMessage, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length)));
    req.once("error", reject);
  });
}

/**
 * The body as a web stream that errors with PayloadTooLarge past the endpoint's limit, whatever the transfer
 * encoding (a chunked upload declares no length). Neither that nor a reader's cancel destroys the request: its
 * socket must stay open for the answer, and the rest is drained after it (lib/api/linger.ts).
 */
function boundedBody(req: IncomingMessage, limit: number): ReadableStream<Uint8Array> {
  let size = 0;
  let open = true;
  let onData: ((chunk: Buffer) => void) | undefined;
  const stop = () => {
    open = false;
    req.pause();
    if (onData) req.removeListener("data", onData);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      onData = (chunk) => {
        size += chunk.length;
        if (size > limit) {
          stop();
          controller.error(bodyTooLarge(limit));
          return;
        }
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      };
      req.on("data", onData);
      req.once("end", () => {
        if (open) controller.close();
      });
      req.once("error", (err) => {
        if (open) controller.error(err);
      });
    },
    pull() {
      if (open) req.resume();
    },
    cancel() {
      stop();
    },
  });
}

async function toRequest(req: IncomingMessage, method: string, e: Endpoint | undefined): Promise<ApiRequest> {
  // As under Next, a GET's body is not read.
  if (method === "GET") return new NodeRequest(req, method, null);
  const limit = e?.spec.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const length = bodyToRead(req, e, limit);
  if (length !== undefined) return withBody(new NodeRequest(req, method, null), await readAll(req, length));
  return new NodeRequest(req, method, () => boundedBody(req, limit));
}

/** An envelope in one write with its length (a piped stream would send it chunked, in several system calls). */
function sendEnvelope(res: ServerResponse, answer: Envelope): void {
  res.statusCode = answer.status;
  for (const [k, v] of answer.headers.entries()) res.setHeader(k, v);
  const cookies = answer.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  const whole = Buffer.from(answer.text);
  res.setHeader("content-length", whole.length);
  res.end(whole);
}

async function send(req: IncomingMessage, res: ServerResponse, answer: Served): Promise<void> {
  lingerIfUnread(req, res);
  if (answer instanceof Envelope) return sendEnvelope(res, answer);
  res.statusCode = answer.status;
  for (const [k, v] of answer.headers) if (k !== "set-cookie") res.setHeader(k, v);
  const cookies = answer.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  if (answer.headers.get("content-type")?.startsWith("application/json")) {
    if (!answer.body) {
      res.end();
      return;
    }
    const whole = Buffer.from(await answer.arrayBuffer());
    res.setHeader("content-length", whole.length);
    res.end(whole);
    return;
  }
  if (!answer.body) {
    res.end();
    return;
  }
  const body = Readable.fromWeb(answer.body as NodeWebStream);
  // A client gone mid-answer (a long CSV export) stops the producer rather than leaving it running.
  res.once("close", () => body.destroy());
  body.on("error", () => res.destroy());
  body.pipe(res);
}

/**
 * The route of a request's URL (query and all), or undefined: none, or a malformed %-escape (refused before this,
 * lib/api/refuse.ts).
 */
function routeOf(catalog: Endpoint[], url: string): ReturnType<typeof matchRoute> {
  const q = url.indexOf("?");
  try {
    return matchRoute(catalog, q < 0 ? url : url.slice(0, q));
  } catch {
    return undefined;
  }
}

/** Serves the request if the catalog has its path and method; false hands it to Next. */
export function serveDirect(catalog: Endpoint[], req: IncomingMessage, res: ServerResponse): boolean {
  const method = req.method ?? "GET";
  const url = req.url ?? "/";
  if (method === "OPTIONS" && url.startsWith("/api/"))
    return servePreflight(req, res, routeOf(catalog, url)?.route);
  if (!METHODS.has(method) || !url.startsWith("/api/")) return false;
  const found = routeOf(catalog, url);
  if (!found) return false;
  // The endpoint's own answer (an envelope may come without a body stream: send writes its text), else the 405.
  const e = found.route.endpoints.get(method);
  const handler: (r: ApiRequest, c: RouteContext) => Promise<Served> = e
    ? (r, c) => e.serve(r, c)
    : found.route.handlers[method as Method];
  const params = Promise.resolve(found.params);
  const note = noteOf(req);
  if (note) note.route = (e ?? found.route.endpoints.values().next().value)?.spec.path;
  void Promise.resolve()
    .then(() => toRequest(req, method, found.route.endpoints.get(method)))
    .then((request) => {
      if (note) linkNote(request, note);
      return handler(request, { params });
    })
    .then(
      (answer) => send(req, res, answer),
      (err: unknown) => {
        console.error(`${method} ${url}:`, err);
        res.destroy();
      },
    );
  return true;
}

type NextHandler = (req: Request) => Promise<Response>;

/**
 * The exports of Next's catch-all route under /api: the request's path (already rewritten from its version prefix
 * by the server, lib/api/rewrite.ts) matched against the catalog, its endpoint's answer, the envelope 405 with
 * `Allow` for another method, the envelope 404 for a path no endpoint has. HEAD Next derives from GET.
 */
export function nextHandlers(catalog: Endpoint[]): Record<Method | "OPTIONS", NextHandler> {
  const find = (req: Request) => {
    try {
      return matchRoute(catalog, new URL(req.url).pathname);
    } catch {
      return undefined; // a malformed %-escape, refused before this in the server (lib/api/refuse.ts)
    }
  };
  const serve =
    (method: Method): NextHandler =>
    (req) => {
      const found = find(req);
      if (!found) return notFound(req);
      return found.route.handlers[method](req, { params: Promise.resolve(found.params) });
    };
  const options: NextHandler = (req) => {
    const found = find(req);
    if (!found) return notFound(req);
    return Promise.resolve(
      new Response(null, { status: 204, headers: optionsHeaders(found.route, req.headers.get("origin")) }),
    );
  };
  return {
    GET: serve("GET"),
    POST: serve("POST"),
    PUT: serve("PUT"),
    PATCH: serve("PATCH"),
    DELETE: serve("DELETE"),
    OPTIONS: options,
  };
}
