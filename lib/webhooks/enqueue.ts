import type { Queryable } from "../db/sql";
import { toJson } from "../api/envelope";
import { webhookKind } from "./kinds";
import { activeSubscriptions, markQueued } from "./state";

export interface LoggedEvent {
  id: bigint;
  appId: bigint;
  type: string;
  /** Not selected by every writer; the kind is derived from `type`. */
  channel?: string;
  payload: unknown;
  created: Date;
}

/**
 * Called inside the writing transaction with the event-log rows it just wrote: deliveries for the app's matching
 * webhook subscriptions are created in that same transaction, so a committed event never misses its webhooks.
 */
export async function enqueueWebhooks(tx: Queryable, events: LoggedEvent[]): Promise<void> {
  const data: { subscriptionId: bigint; eventId: bigint; type: string; payload: unknown }[] = [];
  const byApp = new Map<bigint, LoggedEvent[]>();
  for (const e of events) byApp.set(e.appId, [...(byApp.get(e.appId) ?? []), e]);
  for (const [appId, appEvents] of byApp) {
    let subs: Awaited<ReturnType<typeof activeSubscriptions>> | undefined;
    for (const e of appEvents) {
      const kind = webhookKind(e.type, e.channel, e.payload);
      if (!kind) continue;
      const payload = e.payload ?? {};
      if (kind === "test") {
        // A test is for the one subscription that asked, active or not, whatever its kinds.
        const target = (e.payload as { webhook?: unknown } | null)?.webhook;
        if (typeof target === "number" || typeof target === "string")
          data.push({ subscriptionId: BigInt(target), eventId: e.id, type: kind, payload });
        continue;
      }
      subs ??= await activeSubscriptions(tx, appId);
      for (const s of subs) {
        if (s.events.includes(kind)) data.push({ subscriptionId: s.id, eventId: e.id, type: kind, payload });
      }
    }
  }
  if (!data.length) return;
  const rows = data.map((d) => ({
    subscription_id: String(d.subscriptionId),
    event_id: String(d.eventId),
    type: d.type,
    payload: d.payload,
  }));
  await tx.$executeRaw`
    INSERT INTO webhook_deliveries (subscription_id, event_id, type, payload)
    SELECT d.subscription_id, d.event_id, d.type, d.payload
    FROM jsonb_to_recordset(${toJson(rows, false)}::jsonb)
      AS d(subscription_id bigint, event_id bigint, type text, payload jsonb)
    ON CONFLICT DO NOTHING`;
  markQueued(data.map((d) => d.eventId));
}
