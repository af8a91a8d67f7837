import { getRuntime } from "@/lib/server/runtime";
import { UNAVAILABLE_RETRY_AFTER_S } from "@/lib/api/errors";

export const dynamic = "force-dynamic";

export async function GET() {
  const rt = getRuntime();
  let database = "ok";
  try {
    await rt.db.$queryRaw`SELECT 1`;
  } catch {
    database = "down";
  }
  const status = database === "ok" ? 200 : 503;
  const data = {
    database: { status: database, kind: rt.dbKind },
    realtime: {
      status: rt.io ? "ok" : "down",
      redis: rt.realtime.redis,
      sockets: rt.io?.engine.clientsCount ?? 0,
    },
    uptime: Math.round((Date.now() - rt.startedAt) / 1000),
  };
  // A load balancer or monitor told when to look again, as every other endpoint tells clients during an outage.
  const headers: Record<string, string> =
    status === 503 ? { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_S) } : {};
  return Response.json({ data, meta: { status } }, { status, headers });
}
