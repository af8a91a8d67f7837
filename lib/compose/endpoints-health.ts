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

export const liveSchema = z.object({ live: z.literal(true) });
export const readySchema = z.object({
  ready: z.boolean(),
  /** Shutting down (SIGTERM): finishing what is in flight, taking nothing new. */
  draining: z.boolean(),
  database: z.enum(["ok", "down"]),
});

const live = async (): Promise<Response> => Response.json({ data: { live: true }, meta: { status: 200 } });

async function ready(): Promise<Response> {
  const rt = getRuntime();
  const draining = rt.draining === true;
  let database: "ok" | "down" = "ok";
  try {
    if (!draining) await rt.db.$queryRaw`SELECT 1`;
  } catch {
    database = "down";
  }
  const isReady = !draining && database === "ok";
  const data: z.infer<typeof readySchema> = { ready: isReady, draining, database };
  const status = isReady ? 200 : 503;
  // A draining instance is not coming back: another instance should be asked at once.
  const headers: Record<string, string> = isReady
    ? {}
    : { "Retry-After": draining ? "1" : String(UNAVAILABLE_RETRY_AFTER_S) };
  return Response.json({ data, meta: { status } }, { status, headers });
}

export const getLive = endpoint({
  method: "GET",
  path: "/health/live",
  summary: "Liveness: the process answers (a supervisor restarts an instance that stops answering)",
  tags: ["Meta"],
  auth: "none",
  ias: false,
  v1: { params: z.object({}), response: liveSchema, handler: live },
  v2: { params: z.object({}), response: liveSchema, handler: live },
});

export const getReady = endpoint({
  method: "GET",
  path: "/health/ready",
  summary:
    "Readiness: whether a load balancer should send this instance traffic (503 while draining after SIGTERM " +
    "or while the database is unreachable)",
  tags: ["Meta"],
  auth: "none",
  ias: false,
  v1: { params: z.object({}), response: readySchema, handler: ready },
  v2: { params: z.object({}), response: readySchema, handler: ready },
});
