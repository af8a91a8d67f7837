import { z } from "zod";
import { getRuntime } from "../server/runtime";
import { endpoint } from "../api/endpoint";
import { UNAVAILABLE_RETRY_AFTER_S } from "../api/errors";

export const healthSchema = z.object({
  database: z.object({ status: z.enum(["ok", "down"]), kind: z.enum(["postgres", "pglite"]) }),
  realtime: z.object({
    status: z.enum(["ok", "down"]),
    redis: z.enum(["off", "connected", "down"]),
    sockets: z.number().int(),
  }),
  /** Seconds since the server started. */
  uptime: z.number().int(),
});

async function health(): Promise<Response> {
  const rt = getRuntime();
  let database: "ok" | "down" = "ok";
  try {
    await rt.db.$queryRaw`SELECT 1`;
  } catch {
    database = "down";
  }
  const status = database === "ok" ? 200 : 503;
  const data: z.infer<typeof healthSchema> = {
    database: { status: database, kind: rt.dbKind },
    realtime: {
      status: rt.io ? "ok" : "down",
      redis: rt.realtime.redis,
      sockets: rt.io?.engine.clientsCount ?? 0,
    },
    uptime: Math.round((Date.now() - rt.startedAt) / 1000),
  };
  // A load balancer or monitor told when to look again, as every other endpoint tells clients during an outage;
  // the body stays the health report (not an error envelope), which a monitor reads to see what is down.
  const headers: Record<string, string> =
    status === 503 ? { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_S) } : {};
  return Response.json({ data, meta: { status } }, { status, headers });
}

export const getHealth = endpoint({
  method: "GET",
  path: "/health",
  summary: "Whether the database and real-time delivery are up (503 while the database is unreachable)",
  tags: ["Meta"],
  auth: "none",
  ias: false,
  v1: { params: z.object({}), response: healthSchema, handler: health },
  v2: { params: z.object({}), response: healthSchema, handler: health },
});
