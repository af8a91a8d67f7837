import { Prisma } from "../db/generated/client";
import type { Tx } from "../db/client";
import type { Ctx } from "../auth/context";
import { announceIfNewLead } from "../users/lead-events";
import { withEvents, type Emit } from "../eventlog/append";
import { eventOf } from "../contract/socket";
import { lockUser } from "../users/resolve";
import { isoNoOffset } from "../user-model/system-props";
import { serializeEvent, type EventRow } from "./serialize";
import { trackEventGrouped, type TrackEventInput } from "./track-grouped";

/** The app's event type of that name, made on first use (concurrent first uses agree on one row). */
async function eventType(tx: Tx, appId: bigint, name: string) {
  await tx.$executeRaw(Prisma.sql`
    INSERT INTO event_types (app_id, name) VALUES (${appId}, ${name}) ON CONFLICT (app_id, name) DO NOTHING`);
  return tx.eventType.findUniqueOrThrow({
    where: { appId_name: { appId, name } },
    select: { id: true, name: true, score: true, visible: true },
  });
}

/**
 * Records an event and keeps the user's summary for its type (first, last, count) exact: the summary is upserted
 * atomically in the event's own transaction. The common case is written with the events arriving at the same time
 * (lib/events/track-grouped.ts); the rest (a user to create, an operator's call, errors to tell) runs as a
 * transaction with the user's row locked.
 */
export async function trackEvent(ctx: Ctx, input: TrackEventInput): Promise<EventRow> {
  return (await trackEventGrouped(ctx, input)) ?? trackInTransaction(ctx, input);
}

async function trackInTransaction(ctx: Ctx, input: TrackEventInput): Promise<EventRow> {
  return withEvents(ctx.db, async (tx, emit) => {
    const {
      id: userId,
      appId,
      created: newUser,
    } = await lockUser(tx, ctx, input.user, { create: input.user.by_user_id });
    if (newUser) await announceIfNewLead(tx, emit, { id: userId, wasLead: false });
    return recordEvent(tx, emit, {
      appId,
      userId,
      name: input.event,
      created: input.created ?? new Date(),
      props: input.params ?? {},
    });
  });
}

/**
 * Writes one event of a known user inside the caller's transaction: the row, the user's summary for its type, and
 * their log rows (`event`, `user_props_changed`). The services that record what a user did as part of a change of
 * their own (a message sent, read) use it, so that the change and its event commit together.
 */
export async function recordEvent(
  tx: Tx,
  emit: Emit,
  input: { appId: bigint; userId: bigint; name: string; created: Date; props: Record<string, unknown> },
): Promise<EventRow> {
  const { appId, userId, created } = input;
  const type = await eventType(tx, appId, input.name);
  const ev = await tx.event.create({
    data: { appId, userId, typeId: type.id, created, props: input.props as Prisma.InputJsonValue },
    select: { id: true, created: true, props: true },
  });
  const [summary] = await tx.$queryRaw<{ first: Date; last: Date; count: number }[]>(Prisma.sql`
      INSERT INTO user_event_summaries AS s (user_id, event_type_id, "first", "last", "count")
      VALUES (${userId}, ${type.id}, ${created}, ${created}, 1)
      ON CONFLICT (user_id, event_type_id) DO UPDATE SET
        "first" = LEAST(s."first", EXCLUDED."first"),
        "last" = GREATEST(s."last", EXCLUDED."last"),
        "count" = s."count" + 1
      RETURNING "first", "last", "count"`);
  const row: EventRow = { id: ev.id, created: ev.created, props: ev.props, userId, type };
  // Logged once for the app; the hub also delivers it on the user-scoped twin `event.<app>.<user>`.
  emit(eventOf("event", { appId, userId }, serializeEvent(row)));
  if (summary) {
    emit(
      eventOf(
        "user_props_changed",
        { appId, userId },
        {
          user: userId,
          app: appId,
          props: {
            [`$event_${type.id}_first`]: isoNoOffset(summary.first),
            [`$event_${type.id}_last`]: isoNoOffset(summary.last),
            [`$event_${type.id}_count`]: summary.count,
          },
        },
      ),
    );
  }
  return row;
}
