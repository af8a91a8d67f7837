/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // server.ts owns the process; route handlers reach the database and socket.io through globalThis singletons.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "socket.io", "ioredis"],
  skipTrailingSlashRedirect: true,
  typescript: { ignoreBuildErrors: false },
};
export default nextConfig;
