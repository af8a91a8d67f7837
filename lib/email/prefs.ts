import type { Ctx } from "../auth/context";
import { denied } from "../domain/errors";

/** Which emails the operator gets: unread visitor messages, mentions, assignments. */
export interface OperatorEmailPrefs {
  unread: boolean;
  mention: boolean;
  assigned: boolean;
}

function operatorOf(ctx: Ctx): bigint {
  // A token is nobody's: only an operator has emails of their own.
  if (ctx.actor.kind !== "admin") throw denied("Only an operator (a panel session) has email preferences.");
  return ctx.actor.adminId;
}

const SELECT = { emailOnUnread: true, emailOnMention: true, emailOnAssigned: true } as const;

export async function getOperatorEmailPrefs(ctx: Ctx): Promise<OperatorEmailPrefs> {
  const a = await ctx.db.admin.findUniqueOrThrow({ where: { id: operatorOf(ctx) }, select: SELECT });
  return { unread: a.emailOnUnread, mention: a.emailOnMention, assigned: a.emailOnAssigned };
}

/** Changes only what `input` names. */
export async function updateOperatorEmailPrefs(
  ctx: Ctx,
  input: Partial<OperatorEmailPrefs>,
): Promise<OperatorEmailPrefs> {
  const a = await ctx.db.admin.update({
    where: { id: operatorOf(ctx) },
    data: { emailOnUnread: input.unread, emailOnMention: input.mention, emailOnAssigned: input.assigned },
    select: SELECT,
  });
  return { unread: a.emailOnUnread, mention: a.emailOnMention, assigned: a.emailOnAssigned };
}
