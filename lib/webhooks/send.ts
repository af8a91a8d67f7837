import crypto from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { parseWebhookUrl, resolveAllowed, UrlRefused, type HostLookup, type Resolved } from "./url-guard";

export const USER_AGENT = "RelayInbox-Webhooks/1.0";
export const SEND_TIMEOUT_MS = 10_000;
/**
 * Connections to receivers are kept for a moment and reused: a burst of deliveries to one receiver would otherwise
 * open (and for https, negotiate) a connection per delivery. A new connection goes through the pinned lookup below,
 * so it reaches checked addresses only; a reused one was checked when it was opened, for the same host.
 */
// `timeout` closes a free connection after 5 s idle: nothing idles long towards receivers.
const KEEP_ALIVE = { keepAlive: true, maxSockets: 64, maxFreeSockets: 64, timeout: 5_000 };
const agents = { "http:": new http.Agent(KEEP_ALIVE), "https:": new https.Agent(KEEP_ALIVE) };
/** Receivers' answers are read this far (then dropped): only the status matters. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** `sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>` */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${crypto.createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

export interface Outgoing {
  url: string;
  secret: string;
  /** The stable X-Webhook-Id. */
  id: string;
  body: string;
  allowPrivate: boolean;
  signal?: AbortSignal;
  /** The resolver to check the host with (the system's by default). */
  lookup?: HostLookup;
}

export type SendResult = { ok: boolean; status: number | null; error: string | null };

/**
 * One POST. The URL is checked again on every send (DNS may have changed since the subscription was saved), and
 * the connection goes to the checked addresses only. No redirects are followed: a 3xx is a failure.
 */
export async function sendWebhook(o: Outgoing): Promise<SendResult> {
  let url: URL;
  let addresses: Resolved[];
  try {
    url = parseWebhookUrl(o.url);
    addresses = await resolveAllowed(url.hostname, o.allowPrivate, o.lookup);
  } catch (err) {
    if (err instanceof UrlRefused) return { ok: false, status: null, error: `URL refused: ${err.reason}` };
    throw err;
  }
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(o.body)),
    "User-Agent": USER_AGENT,
    "X-Webhook-Id": o.id,
    "X-Webhook-Timestamp": String(timestamp),
    "X-Webhook-Signature": signWebhook(o.secret, timestamp, o.body),
  };
  const pinned: LookupFunction = (_host, opts, cb) => {
    const family = (opts as { family?: number }).family;
    const pick = addresses.find((a) => !family || a.family === family) ?? addresses[0]!;
    if ((opts as { all?: boolean }).all) {
      (cb as unknown as (e: null, a: Resolved[]) => void)(null, addresses);
    } else cb(null, pick.address, pick.family);
  };
  const signal = o.signal
    ? AbortSignal.any([o.signal, AbortSignal.timeout(SEND_TIMEOUT_MS)])
    : AbortSignal.timeout(SEND_TIMEOUT_MS);
  const mod = url.protocol === "https:" ? https : http;
  return new Promise<SendResult>((resolve) => {
    const agent = agents[url.protocol === "https:" ? "https:" : "http:"];
    const req = mod.request(url, { method: "POST", headers, lookup: pinned, signal, agent }, (res) => {
      let read = 0;
      res.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) res.destroy();
      });
      const done = () => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        resolve({ ok, status, error: ok ? null : `HTTP ${status}` });
      };
      res.on("end", done);
      res.on("close", done);
      res.on("error", done);
    });
    req.on("error", (err: NodeJS.ErrnoException) => {
      const reason = signal.aborted && err.name === "AbortError" ? "timed out or cancelled" : err.message;
      resolve({ ok: false, status: null, error: `${err.code ?? "error"}: ${reason}`.slice(0, 500) });
    });
    req.end(o.body);
  });
}
