import type { IncomingMessage } from "node:http";

/**
 * What endpoint() and the handlers read of a request. A web Request has all of it (Next's catch-all route and the
 * tests hand one in); the server's direct path (lib/api/direct.ts) hands in a NodeRequest, which reads its
 * IncomingMessage as asked: a web Request built per request (its Headers, URL and AbortSignal) cost more than the
 * rest of an empty endpoint's work.
 */
export interface ApiRequest {
  readonly method: string;
  /** Absolute, as a web Request's. */
  readonly url: string;
  readonly headers: Pick<Headers, "get" | "has">;
  /** The body as a stream; null when there is none (or it was read before, see lib/api/params.ts withBody). */
  readonly body: ReadableStream<Uint8Array> | null;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** Header lookups over the IncomingMessage's own lowercased table: nothing copied. */
class NodeHeaders implements Pick<Headers, "get" | "has"> {
  constructor(private readonly table: IncomingMessage["headers"]) {}

  get(name: string): string | null {
    const v = this.table[name.toLowerCase()];
    if (v === undefined) return null;
    return typeof v === "string" ? v : v.join(", ");
  }

  has(name: string): boolean {
    return this.table[name.toLowerCase()] !== undefined;
  }
}

/**
 * A request as the direct path serves it. `body` is made on first use (a GET, or a body already read, never makes
 * one).
 */
export class NodeRequest implements ApiRequest {
  readonly headers: NodeHeaders;
  private stream: ReadableStream<Uint8Array> | null | undefined;
  private href: string | undefined;

  constructor(
    private readonly msg: IncomingMessage,
    readonly method: string,
    private readonly makeBody: (() => ReadableStream<Uint8Array>) | null,
  ) {
    // req.headers, not rawHeaders: it carries the version and client address the server set (lib/api/rewrite.ts).
    this.headers = new NodeHeaders(msg.headers);
  }

  get url(): string {
    return (this.href ??= `http://${this.msg.headers.host ?? "localhost"}${this.msg.url ?? "/"}`);
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.stream === undefined) this.stream = this.makeBody ? this.makeBody() : null;
    return this.stream;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const body = this.body;
    if (!body) return new ArrayBuffer(0);
    return new Response(body).arrayBuffer();
  }
}
