import { Prisma } from "../db/generated/client";
import type { Ctx } from "../auth/context";
import {
  paginateV1,
  paginateV2,
  type Fetch,
  type KeyColumn,
  v1PageParams,
  v2PageParams,
} from "../api/pagination";
import type { z } from "zod";
import { ensureUser, type UserRef } from "../users/resolve";
import { eventFromSql, type EventRow, type EventSqlRow } from "./serialize";

const COLS: KeyColumn[] = [{ kind: "id", sql: Prisma.sql`e.id` }];
const keyOf = (e: EventRow) => [e.id];

type V2 = { [K in keyof typeof v2PageParams]?: z.output<(typeof v2PageParams)[K]> };
type V1 = { [K in keyof typeof v1PageParams]?: z.output<(typeof v1PageParams)[K]> };

export interface ListEventsInput {
  user: UserRef;
  filterName?: string;
  page: { v: 2; params: V2 } | { v: 1; params: V1 };
}

/**
 * A user's events, newest first by default, paged by event ID (v2 positions `[id]`, v1 `after` cursors). With
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
  if (input.page.v === 1) return paginateV1(input.page.params, COLS, keyOf, fetch);
  return paginateV2(input.page.params, COLS, keyOf, fetch);
}
