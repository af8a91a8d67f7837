const dev = process.env.NODE_ENV !== "production";

/**
 * The panel's pages: not framed by anyone, scripts and connections from this origin only. Next's own bootstrap
 * and flight data are inline scripts, hence 'unsafe-inline' (nonces would render every page per request); React's
 * escaping and the panel's URL helper (lib/client/safe-url.ts) keep user data out of script contexts. Avatars are
 * anyone's images. Development adds what `next dev` needs (eval for its refresh runtime).
 */
const PANEL_POLICY = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https: http:",
  "font-src 'self' data:",
  `connect-src 'self'${dev ? " ws: wss:" : ""}`,
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const PANEL_HEADERS = [
  { key: "Content-Security-Policy", value: PANEL_POLICY },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
];

// Per path. The messenger's frame, framed on customers' sites, is served with its own policy by the server in
// front of Next (lib/messenger-assets/serve.ts); a page with other needs gets an entry of its own.
const PANEL_PATHS = [
  "/",
  "/login/:path*",
  "/inbox/:path*",
  "/leads/:path*",
  "/messages/:path*",
  "/bots/:path*",
  "/settings/:path*",
  "/docs/:path*",
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // server.ts owns the process; route handlers reach the database and socket.io through globalThis singletons.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "socket.io", "ioredis"],
  skipTrailingSlashRedirect: true,
  // `npm test` runs tsc over the whole project; the build skips its own pass to save a minute.
  typescript: { ignoreBuildErrors: true },
  // Parallel builds (several worktrees' tests on one machine) each get their own output directory.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  headers: async () => PANEL_PATHS.map((source) => ({ source, headers: PANEL_HEADERS })),
};
export default nextConfig;
