import type { Db } from "./client";

/**
 * The name the instances of one deployment share: its database's. What they keep in a shared Redis (socket.io
 * channels, rate-limit buckets, login lockouts) is named after it, so another deployment (or a test server) on the
 * same Redis never meets their keys.
 */
export async function deploymentName(db: Pick<Db, "$queryRaw">): Promise<string> {
  const [row] = await db.$queryRaw<{ name: string }[]>`SELECT current_database() AS name`;
  return row?.name ?? "";
}
