import type { Queryable } from "../db/sql";
import type { Emit } from "../eventlog/append";
import { eventOf } from "../contract/socket";
import { serializeUserShort, USER_SYSTEM_SQL, type UserSystemRow } from "../user-model/system-props";

/**
 * Logs `lead_created` (the `user.lead_created` webhook) when a write made the user a lead by the current rule: call
 * it after the write, in the same transaction, with whether the user was a lead before (false for a new user).
 */
export async function announceIfNewLead(
  tx: Queryable,
  emit: Emit,
  user: { id: bigint; wasLead: boolean },
): Promise<void> {
  if (user.wasLead) return;
  // Raw SQL: it runs in the props and event writes' transactions, where Prisma's query building cost more than it.
  const [row] = await tx.$queryRaw<(UserSystemRow & { isLead: boolean })[]>`
    SELECT ${USER_SYSTEM_SQL}, u.is_lead AS "isLead" FROM users u WHERE u.id = ${user.id}`;
  if (!row?.isLead) return;
  emit(eventOf("lead_created", { appId: row.appId, userId: row.id }, serializeUserShort(row)));
}
