import type { Ctx } from "../auth/context";
import { announceIfNewLead } from "./lead-events";
import { withEvents } from "../eventlog/append";
import { eventOf } from "../contract/socket";
import { lockUser, type UserRef } from "./resolve";

export type EmailStatus = "subscribed" | "unsubscribed";

/** Marks the user Unsubscribed from email; POST props with `double_subscribe` re-subscribes. */
export async function unsubscribeEmail(ctx: Ctx, input: { user: UserRef }) {
  return withEvents(ctx.db, async (tx, emit) => {
    const { id, appId } = await lockUser(tx, ctx, input.user);
    const before = await tx.user.findUniqueOrThrow({ where: { id }, select: { emailStatus: true } });
    if (before.emailStatus !== "unsubscribed") {
      await tx.user.update({ where: { id }, data: { emailStatus: "unsubscribed" } });
      emit(
        eventOf(
          "user_props_changed",
          { appId, userId: id },
          { user: id, app: appId, props: {}, email_status: "unsubscribed" },
        ),
      );
    }
    return {
      id,
      appId,
      emailStatus: "unsubscribed" as EmailStatus,
      changed: before.emailStatus !== "unsubscribed",
    };
  });
}

/** The web-push subscription flag; the v2 lead rule counts it (the trigger updates is_lead in the same statement). */
export async function setWebpush(ctx: Ctx, input: { user: UserRef; subscribed: boolean }) {
  return withEvents(ctx.db, async (tx, emit) => {
    const { id, appId } = await lockUser(tx, ctx, input.user);
    const before = await tx.user.findUniqueOrThrow({ where: { id }, select: { isLead: true } });
    const u = await tx.user.update({
      where: { id },
      data: { webpushSubscribed: input.subscribed },
      select: { webpushSubscribed: true, isLead: true },
    });
    await announceIfNewLead(tx, emit, { id, wasLead: before.isLead });
    return { id, appId, subscribed: u.webpushSubscribed, isLead: u.isLead };
  });
}
