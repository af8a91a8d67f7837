/**
 * Where to go after logging in: the `next` parameter when it is a path on this site (never another origin, never
 * the login page itself), otherwise the fallback.
 */
export function safeNextPath(next: string | null | undefined, fallback = "/inbox"): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return fallback;
  try {
    const base = "http://relay.invalid";
    const url = new URL(next, base);
    if (url.origin !== base) return fallback;
    if (url.pathname === "/login" || url.pathname.startsWith("/login/") || url.pathname.startsWith("/api/")) {
      return fallback;
    }
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}
