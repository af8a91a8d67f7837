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
};
export default nextConfig;
