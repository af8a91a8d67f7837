import { Prisma } from "../db/generated/client";
import type { Ctx } from "../auth/context";
import { pageByKeyset, type Fetch, type KeyColumn } from "../db/keyset";
import type { Keyset } from "../domain/keyset";
import { ensureUser, type UserRef } from "../users/resolve";
import { eventFromSql, type EventRow, type EventSqlRow } from "./serialize";

export const EVENT_KEY: KeyColumn[] = [{ kind: "id", sql: Prisma.sql`e.id` }];
const keyOf = (e: EventRow) => [e.id];

export interface ListEventsInput {
  user: UserRef;
  filterName?: string;
  page: Keyset;
}

/**
 * A user's events, keyset-paged by event ID (the keyset says which way and in which order). With
 * by_user_id a user that does not exist yet is created, as the spec says of this call.
 */
export async function listEvents(ctx: Ctx, input: ListEventsInput) {
  const user = await ensureUser(ctx, input.user);
  let typeFilter = Prisma.empty;
  if (input.filterName !== undefined) {
    const t = await ctx.db.eventType.findUnique({
      where: { appId_name: { appId: user.appId, name: input.filterName } },
      select: { id: true },
    });
    // An unknown name filters everything out, it is not an error: no event of that name happened.
    typeFilter = Prisma.sql`AND e.type_id = ${t?.id ?? 0n}`;
  }
  const fetch: Fetch<EventRow> = async (where, order, limit) => {
    const rows = await ctx.db.$queryRaw<EventSqlRow[]>(Prisma.sql`
      SELECT e.id, e.created, e.props, e.user_id, t.id AS type_id, t.name, t.score, t.visible
      FROM events e JOIN event_types t ON t.id = e.type_id
      WHERE e.user_id = ${user.id} ${typeFilter} AND ${where}
      ORDER BY ${order} LIMIT ${limit}`);
    return rows.map(eventFromSql);
  };
  return pageByKeyset(input.page, EVENT_KEY, keyOf, fetch);
}
