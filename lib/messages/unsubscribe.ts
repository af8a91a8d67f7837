import type { Ctx } from "../auth/context";
import { withEvents } from "../eventlog/append";
import { unsubscribeByToken } from "../email/unsubscribe";
import { lockedSend, recordMessageEvent } from "./send";

/**
 * An unsubscribe link followed. When it came with an email message, its `s` names the send, and the message records
 * `$message_unsubscribed` (its statistics, chains and Leads see it). A send that is not this person's sent email
 * (a link edited by hand, a message deleted since) records nothing: the unsubscribe itself never fails for it.
 */
export async function unsubscribeFromEmail(ctx: Ctx, input: { token: string; sendId?: bigint }) {
  const r = await unsubscribeByToken(ctx, { token: input.token });
  const sendId = input.sendId;
  if (sendId !== undefined) {
    await withEvents(ctx.db, async (tx, emit) => {
      const send = await lockedSend(tx, r.userId, sendId, ["email"]);
      if (send) await recordMessageEvent(tx, emit, { send, kind: "unsubscribed", at: new Date() });
    });
  }
  return r;
}
