/**
 * User-supplied URLs (avatars, links in props, attachment links) before they become an `href` or `src`: absolute
 * http(s) URLs only, never `javascript:`, `data:`, `blob:` or the like; paths on this site only where the caller
 * says so (the server's own relative attachment links). Anything else is dropped, not repaired.
 */
export function safeUrl(raw: unknown, opts: { sitePath?: boolean } = {}): string | undefined {
  if (typeof raw !== "string" || !raw) return undefined;
  if (opts.sitePath && /^\/(?![/\\])/.test(raw)) return raw;
  try {
    const u = new URL(raw);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : undefined;
  } catch {
    return undefined;
  }
}
