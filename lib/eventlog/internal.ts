import type { Queryable } from "../db/sql";
import { NOTIFY_AT_COMMIT } from "./append";
import { WRITER_LOCK } from "./keys";

/**
 * The channel of the rows the instances write for each other (access revocations, lib/auth/revocations.ts): in no
 * app, and not a channel name a client can subscribe to, so no socket, replay or webhook ever carries one. The hub
 * (lib/realtime/hub.ts) hands them to their reader instead of fanning them out.
 */
export const INTERNAL_CHANNEL = "relay:internal";

/**
 * Appends one internal row in the caller's transaction, as appendSql (lib/eventlog/append.ts) appends events: the
 * writer's lock first, then the ID, and the NOTIFY at commit. After the commit, notifyCommitted wakes this
 * instance's hub; the others wake on the NOTIFY.
 */
export async function appendInternal(tx: Queryable, type: string, payload: unknown): Promise<bigint> {
  const [row] = await tx.$queryRaw<{ id: bigint }[]>`
    WITH l AS MATERIALIZED (SELECT ${WRITER_LOCK}::text AS locked),
    log AS (
      INSERT INTO event_log (app_id, user_id, channel, type, payload)
      SELECT NULL, NULL, ${INTERNAL_CHANNEL}, ${type}, ${JSON.stringify(payload)}::jsonb FROM l
      RETURNING id
    )
    SELECT id, ${NOTIFY_AT_COMMIT} AS n FROM log`;
  if (!row) throw new Error("internal event-log row not written");
  return row.id;
}
