/**
 * An endpoint's answer on the server's own path (lib/api/direct.ts), before anything is a web Response: web
 * Headers and Response objects cost more per request than the empty endpoint's own work (bench: edge), and node
 * writes the status, headers and text as they are. Next's route and the tests get a Response (toResponse).
 */

/** The subset of web Headers the edge writes with; Response.headers has it too, so either answer takes it. */
export interface HeaderSink {
  get(name: string): string | null;
  has(name: string): boolean;
  set(name: string, value: string): void;
  append(name: string, value: string): void;
  delete(name: string): void;
}

/** Headers by lowercase name, as node sends them; Set-Cookie kept as separate values. */
export class AnswerHeaders implements HeaderSink {
  private readonly values = new Map<string, string>();
  private readonly cookies: string[] = [];

  get(name: string): string | null {
    const k = name.toLowerCase();
    if (k === "set-cookie") return this.cookies.length ? this.cookies.join(", ") : null;
    return this.values.get(k) ?? null;
  }
  has(name: string): boolean {
    return this.get(name) !== null;
  }
  set(name: string, value: string): void {
    const k = name.toLowerCase();
    if (k === "set-cookie") this.cookies.splice(0, this.cookies.length, value);
    else this.values.set(k, value);
  }
  append(name: string, value: string): void {
    const k = name.toLowerCase();
    if (k === "set-cookie") this.cookies.push(value);
    else {
      const was = this.values.get(k);
      this.values.set(k, was === undefined ? value : `${was}, ${value}`);
    }
  }
  delete(name: string): void {
    const k = name.toLowerCase();
    if (k === "set-cookie") this.cookies.length = 0;
    else this.values.delete(k);
  }
  /** Every header but Set-Cookie. */
  entries(): IterableIterator<[string, string]> {
    return this.values.entries();
  }
  getSetCookie(): string[] {
    return [...this.cookies];
  }
}

/** A JSON envelope: its status, headers and the text node writes whole. */
export class Envelope {
  constructor(
    readonly status: number,
    readonly headers: AnswerHeaders,
    readonly text: string,
  ) {}
}

/** What endpoint() serves: an envelope, or a handler's own Response (files, streams) and idempotent replays. */
export type Served = Envelope | Response;

/** The served answer as a web Response, for Next's route and the tests. */
export function toResponse(served: Served): Response {
  if (served instanceof Response) return served;
  const headers = new Headers([...served.headers.entries()]);
  for (const c of served.headers.getSetCookie()) headers.append("set-cookie", c);
  return new Response(served.text, { status: served.status, headers });
}
