import type { Tx } from "../db/client";
import type { Emit } from "../eventlog/append";
import { serializeUserShort, userSystemSelect } from "../user-model/system-props";

/**
 * Logs `lead_created` (the `user.lead_created` webhook) when a write made the user a lead by the current rule: call
 * it after the write, in the same transaction, with whether the user was a lead before (false for a new user).
 */
export async function announceIfNewLead(
  tx: Tx,
  emit: Emit,
  user: { id: bigint; wasLead: boolean },
): Promise<void> {
  if (user.wasLead) return;
  const row = await tx.user.findUnique({
    where: { id: user.id },
    select: { ...userSystemSelect, isLead: true },
  });
  if (!row?.isLead) return;
  emit({
    appId: row.appId,
    userId: row.id,
    channel: `lead_created.${row.appId}`,
    type: "lead_created",
    payload: serializeUserShort(row),
  });
}
