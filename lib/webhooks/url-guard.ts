import dns from "node:dns/promises";
import net from "node:net";

/**
 * Webhook URLs must not reach the service's own network (SSRF): loopback, private, link-local, CGNAT, multicast and
 * reserved ranges are refused, in every IPv4 and IPv6 spelling, unless the configuration allows private targets
 * (WEBHOOK_ALLOW_PRIVATE, for tests and closed networks).
 */
export class UrlRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UrlRefused";
  }
}

type Range = [base: bigint, bits: number];

const V4: Range[] = [
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
].map(([ip, bits]) => [v4ToInt(ip as string), bits as number]);

const V6: Range[] = [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
].map(([ip, bits]) => [v6ToInt(ip as string), bits as number]);

/** Prefixes whose last (or embedded) 32 bits are an IPv4 address that decides instead. */
const V4_IN_V6: { base: bigint; bits: number; shift: bigint }[] = [
  { base: v6ToInt("::ffff:0:0"), bits: 96, shift: 0n },
  { base: v6ToInt("::"), bits: 96, shift: 0n },
  { base: v6ToInt("64:ff9b::"), bits: 96, shift: 0n },
  { base: v6ToInt("2002::"), bits: 16, shift: 80n },
];

function v4ToInt(ip: string): bigint {
  return ip.split(".").reduce((acc, o) => (acc << 8n) | BigInt(Number(o)), 0n);
}

function v6ToInt(ip: string): bigint {
  let s = ip;
  let tail: string[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted?.[1]) {
    const n = v4ToInt(dotted[1]);
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

const within = (n: bigint, width: number, [base, bits]: Range) =>
  n >> BigInt(width - bits) === base >> BigInt(width - bits);

/** True for addresses a webhook may not reach. Anything unparsable counts as forbidden. */
export function isForbiddenAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = net.isIP(ip);
  if (family === 4) {
    const n = v4ToInt(ip);
    return V4.some((r) => within(n, 32, r));
  }
  if (family !== 6) return true;
  const n = v6ToInt(ip.toLowerCase());
  for (const m of V4_IN_V6) {
    if (within(n, 128, [m.base, m.bits])) {
      // `::` and `::1` themselves fall in the compatible range; the V6 list below refuses them.
      if (m.bits === 96 && m.base === 0n && n <= 1n) break;
      const v4 = (n >> m.shift) & 0xffff_ffffn;
      return V4.some((r) => within(v4, 32, r));
    }
  }
  return V6.some((r) => within(n, 128, r));
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

// getaddrinfo has no timeout of its own: a hanging resolver must not hold a request or a dispatcher slot.
function lookupAll(host: string) {
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
}

export interface Resolved {
  address: string;
  family: 4 | 6;
}

/**
 * The addresses to connect to for `hostname`, every one of them checked (a name with one private address among
 * public ones is refused: the resolver may hand out either). The sender connects to these very addresses, so a
 * DNS answer that changes between the check and the connection cannot slip through.
 */
export async function resolveAllowed(hostname: string, allowPrivate: boolean): Promise<Resolved[]> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const literal = net.isIP(host);
  let found: Resolved[];
  if (literal) {
    found = [{ address: host, family: literal as 4 | 6 }];
  } else {
    try {
      found = (await lookupAll(host)).map((a) => ({
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
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  const url = parseWebhookUrl(raw);
  await resolveAllowed(url.hostname, allowPrivate);
  return url;
}
