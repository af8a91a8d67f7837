import type { Tx } from "../db/client";
import { Prisma } from "../db/generated/client";
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
export async function enqueueWebhooks(tx: Tx, events: LoggedEvent[]): Promise<void> {
  const data: Prisma.WebhookDeliveryCreateManyInput[] = [];
  const byApp = new Map<bigint, LoggedEvent[]>();
  for (const e of events) byApp.set(e.appId, [...(byApp.get(e.appId) ?? []), e]);
  for (const [appId, appEvents] of byApp) {
    let subs: Awaited<ReturnType<typeof activeSubscriptions>> | undefined;
    for (const e of appEvents) {
      const kind = webhookKind(e.type, e.channel, e.payload);
      if (!kind) continue;
      const payload = (e.payload ?? {}) as Prisma.InputJsonValue;
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
  await tx.webhookDelivery.createMany({ data, skipDuplicates: true });
  markQueued(data.flatMap((d) => (typeof d.eventId === "bigint" ? [d.eventId] : [])));
}
