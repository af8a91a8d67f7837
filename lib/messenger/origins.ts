/**
 * Origins as browsers send them in the `Origin` header: `scheme://host[:port]`, lowercase, without the scheme's
 * default port. Settings store them in this form, so a check is a string comparison.
 */
const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

/** The normalized origin of `text`, or undefined when it is not one (a path, query, credentials or other scheme). */
export function normalizeOrigin(text: string): string | undefined {
  const t = text.trim();
  // URL() would accept "example.com:80" as a scheme, or fill in a missing slash; an origin is written in full.
  if (!/^https?:\/\/[^/?#@\s]+\/?$/i.test(t)) return undefined;
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    return undefined;
  }
  if (u.username || u.password || u.hostname === "") return undefined;
  const port = u.port && u.port !== DEFAULT_PORTS[u.protocol] ? `:${u.port}` : "";
  return `${u.protocol}//${u.hostname}${port}`;
}
