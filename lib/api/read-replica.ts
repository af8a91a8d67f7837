import type { Actor, Ctx } from "../auth/context";
import { countReplicaRead } from "../server/metrics";
import type { Runtime } from "../server/runtime";
import { isDatabaseUnreachable } from "./errors";

/** Who a write is remembered for: the caller's reads see it (lib/db/replica.ts). */
export function actorKey(actor: Actor): string {
  switch (actor.kind) {
    case "admin":
      return `admin:${actor.adminId}`;
    case "token":
      return `key:${actor.apiKeyId}`;
    case "visitor":
      return `visitor:${actor.userId}`;
    default:
      return "anonymous";
  }
}

// A replica refuses writes with this SQLSTATE: a read endpoint that wrote after all is served by the primary.
const READ_ONLY = "25006";

function refusedByReplica(err: unknown): boolean {
  if (isDatabaseUnreachable(err)) return true;
  const text = err instanceof Error ? `${err.message} ${String((err as { code?: unknown }).code)}` : "";
  return text.includes(READ_ONLY) || text.includes("read-only transaction");
}

/**
 * Runs a handler that reads heavy data (`reads: "replica"`) on the replica when the caller's writes are there,
 * else on the primary; a replica that fails it hands it to the primary, so the caller never sees the failure.
 */
async function onReadDb<T>(rt: Runtime, ctx: Ctx, run: (ctx: Ctx) => Promise<T>): Promise<T> {
  const replica = rt.replica;
  const db = replica && (await replica.readerFor(actorKey(ctx.actor)));
  if (!replica || !db) {
    if (replica) countReplicaRead("primary");
    return run(ctx);
  }
  try {
    const result = await run({ ...ctx, db });
    countReplicaRead("replica");
    return result;
  } catch (err) {
    if (!refusedByReplica(err)) throw err;
    replica.failed(err);
    countReplicaRead("primary");
    return run(ctx);
  }
}

/**
 * A handler run where it reads: a heavy read (`reads: "replica"`) through onReadDb, anything else on the primary.
 * After a write, the caller's next heavy reads stay on the primary until the replica has it.
 */
export async function runOnItsDb<T>(
  rt: Runtime,
  ctx: Ctx,
  method: string,
  reads: "replica" | undefined,
  run: (ctx: Ctx) => Promise<T>,
): Promise<T> {
  const result = reads === "replica" ? await onReadDb(rt, ctx, run) : await run(ctx);
  if (rt.replica && method !== "GET" && method !== "HEAD") await rt.replica.wrote(actorKey(ctx.actor));
  return result;
}
