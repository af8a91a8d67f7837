import type { Ctx } from "../auth/context";
import { denied, lookupFailed } from "../domain/errors";
import { unsubscribeEmail } from "../users/subscriptions";
import { verifyUnsubscribeToken } from "./tokens";

/**
 * An unsubscribe link followed (or a mail program's one-click POST): the user it names is marked Unsubscribed, as
 * `POST /users/{id}/unsubscribeemail` does, acting as that visitor. Repeats are harmless.
 */
export async function unsubscribeByToken(ctx: Ctx, input: { token: string }) {
  const userId = await verifyUnsubscribeToken(ctx.db, input.token);
  if (userId === undefined) throw denied("This unsubscribe link is not valid.");
  const user = await ctx.db.user.findUnique({ where: { id: userId }, select: { appId: true } });
  if (!user) throw lookupFailed("The person this link was sent to no longer exists.");
  const asVisitor: Ctx = {
    ...ctx,
    appId: user.appId,
    actor: { kind: "visitor", appId: user.appId, userId, family: "", viaJwt: true },
  };
  const r = await unsubscribeEmail(asVisitor, { user: { id: String(userId) } });
  return { userId, emailStatus: r.emailStatus, changed: r.changed };
}
