import dns from "node:dns/promises";
import net from "node:net";
import { DomainError } from "../domain/errors";

/**
 * Webhook URLs must not reach the service's own network (SSRF): loopback, private, link-local, CGNAT, multicast,
 * documentation, benchmarking and other special-purpose ranges are refused, in every IPv4 and IPv6 spelling
 * (IPv4-mapped, -compatible, SIIT, NAT64 and 6to4 addresses are judged by the IPv4 address they carry), unless the
 * configuration allows private targets (WEBHOOK_ALLOW_PRIVATE, for tests and closed networks).
 */
export class UrlRefused extends DomainError {
  constructor(readonly reason: string) {
    super("invalid", "Invalid parameters: url.", { fields: { url: reason } });
  }
}

/** IANA's special-purpose registries, less the few ranges that are globally reachable. */
const REFUSED = new net.BlockList();
for (const [ip, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  REFUSED.addSubnet(ip, bits, "ipv4");
}
for (const [ip, bits] of [
  ["::", 128],
  ["::1", 128],
  // Local-use NAT64 (RFC 8215) translates to the operator's own networks whatever IPv4 address it carries.
  ["64:ff9b:1::", 48],
  ["100::", 64],
  // Teredo hides its client's address (inverted), so no embedded address can be trusted.
  ["2001::", 32],
  ["2001:2::", 48],
  ["2001:db8::", 32],
  ["3fff::", 20],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  REFUSED.addSubnet(ip, bits, "ipv6");
}

/** IPv6 prefixes that carry an IPv4 address (`shift` bits from the right), which decides instead. */
const CARRIES_V4: { prefix: net.BlockList; shift: bigint }[] = [
  ["::ffff:0:0", 96, 0n], // IPv4-mapped
  ["::ffff:0:0:0", 96, 0n], // IPv4-translated (SIIT)
  ["::", 96, 0n], // IPv4-compatible (deprecated, still parsed by stacks)
  ["64:ff9b::", 96, 0n], // NAT64 well-known prefix
  ["2002::", 16, 80n], // 6to4
].map(([ip, bits, shift]) => {
  const prefix = new net.BlockList();
  prefix.addSubnet(ip as string, bits as number, "ipv6");
  return { prefix, shift: shift as bigint };
});

function v6ToInt(ip: string): bigint {
  let s = ip;
  let tail: string[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted?.[1]) {
    const n = dotted[1].split(".").reduce((acc, o) => (acc << 8n) | BigInt(Number(o)), 0n);
    tail = [(n >> 16n).toString(16), (n & 0xffffn).toString(16)];
    s = s.slice(0, -dotted[1].length) + "0:0";
  }
  const [head = "", rest] = s.split("::");
  const left = head ? head.split(":") : [];
  const right = rest === undefined ? [] : rest ? rest.split(":") : [];
  const groups =
    rest === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  if (tail.length) groups.splice(6, 2, ...tail);
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g || "0", 16)), 0n);
}

const v4Text = (n: bigint) => [24n, 16n, 8n, 0n].map((s) => (n >> s) & 0xffn).join(".");

/** True for addresses a webhook may not reach. Anything unparsable counts as forbidden. */
export function isForbiddenAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = net.isIP(ip);
  if (family === 4) return REFUSED.check(ip, "ipv4");
  if (family !== 6) return true;
  if (REFUSED.check(ip, "ipv6")) return true;
  const carrier = CARRIES_V4.find((c) => c.prefix.check(ip, "ipv6"));
  if (!carrier) return false;
  return REFUSED.check(v4Text((v6ToInt(ip.toLowerCase()) >> carrier.shift) & 0xffff_ffffn), "ipv4");
}

/** Parses a webhook URL: absolute http(s), no credentials. */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefused("must be an absolute http:// or https:// URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UrlRefused("must be an http:// or https:// URL");
  if (url.username || url.password) throw new UrlRefused("must not carry credentials");
  if (!url.hostname) throw new UrlRefused("must name a host");
  return url;
}

const LOOKUP_TIMEOUT_MS = 5_000;

/** Every address a name resolves to. Tests pass their own to play a DNS answer that changes. */
export type HostLookup = (host: string) => Promise<{ address: string; family: number }[]>;

// getaddrinfo has no timeout of its own: a hanging resolver must not hold a request or a dispatcher slot.
const systemLookup: HostLookup = (host) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error("DNS timeout"), { code: "ETIMEOUT" })),
      LOOKUP_TIMEOUT_MS,
    );
  });
  return Promise.race([dns.lookup(host, { all: true, verbatim: true }), timeout]).finally(() =>
    clearTimeout(timer),
  );
};

export interface Resolved {
  address: string;
  family: 4 | 6;
}

/**
 * The addresses to connect to for `hostname`, every one of them checked (a name with one private address among
 * public ones is refused: the resolver may hand out either). The sender connects to these very addresses, so a
 * DNS answer that changes between the check and the connection cannot slip through.
 */
export async function resolveAllowed(
  hostname: string,
  allowPrivate: boolean,
  lookup: HostLookup = systemLookup,
): Promise<Resolved[]> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const literal = net.isIP(host);
  let found: Resolved[];
  if (literal) {
    found = [{ address: host, family: literal as 4 | 6 }];
  } else {
    try {
      found = (await lookup(host)).map((a) => ({
        address: a.address,
        family: a.family === 6 ? 6 : 4,
      }));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? "error";
      throw new UrlRefused(`host ${host} does not resolve (${code})`);
    }
    if (!found.length) throw new UrlRefused(`host ${host} does not resolve`);
  }
  if (!allowPrivate) {
    const bad = found.find((a) => isForbiddenAddress(a.address));
    if (bad) throw new UrlRefused(`resolves to a private or reserved address (${bad.address})`);
  }
  return found;
}

/** The whole check of a subscription's URL (on create and update; the dispatcher repeats it on every send). */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean, lookup?: HostLookup): Promise<URL> {
  const url = parseWebhookUrl(raw);
  await resolveAllowed(url.hostname, allowPrivate, lookup);
  return url;
}
