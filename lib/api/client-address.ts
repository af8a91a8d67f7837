import { BlockList, isIP } from "node:net";

/**
 * The balancers whose X-Forwarded-For is believed (TRUSTED_PROXIES): addresses and CIDR ranges. Anyone else's
 * header is ignored, so a client cannot pick the address its rate limits and login lockouts are counted under.
 */
export function trustedProxies(entries: readonly string[]): BlockList | undefined {
  if (entries.length === 0) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", bits] = entry.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) as the IPv4 address it is. */
function plain(address: string): string {
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function trusts(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? "ipv6" : "ipv4");
}

/**
 * The client's address: the peer's, unless the peer is a trusted balancer; then the right-most address of
 * X-Forwarded-For that is not itself a trusted proxy. Entries left of it were written by the client (nginx
 * appends the peer it saw), so they are never read; an entry that is not an address stops the walk there.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: BlockList | undefined,
): string {
  const direct = plain(peer ?? "unknown");
  if (!trusted || !trusts(trusted, direct) || forwardedFor === undefined) return direct;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor)
    .split(",")
    .map((h) => plain(h.trim()));
  let client = direct;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] ?? "";
    if (isIP(hop) === 0) break;
    client = hop;
    if (!trusts(trusted, hop)) break;
  }
  return client;
}
