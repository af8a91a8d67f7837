import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";
import type { Queryable } from "../db/sql";
import { invalid, lookupFailed } from "../domain/errors";
import { p, parseId } from "../contract/zod";
import { assertApp, requireAppId, type Ctx } from "../auth/context";
import { announceIfNewLead } from "./lead-events";
import { withEvents } from "../eventlog/append";
import { userIdParam } from "./user-id";

/** `{id}` of /users/{id}: the service's ID, or with `by_user_id` the caller's own user ID in an app. */
export interface UserRef {
  id: string;
  by_user_id?: boolean;
  app?: bigint;
}

export const userRefParams = {
  id: userIdParam,
  by_user_id: p.bool().optional(),
  app: p.appId().optional(),
};

function serviceId(ref: UserRef): bigint {
  const id = parseId(ref.id);
  if (id === undefined) {
    throw invalid({
      id: "must be a user ID (an integer from 1 to 2^63-1); pass by_user_id=true to use your own user ID",
    });
  }
  return id;
}

function refApp(ctx: Ctx, ref: UserRef): bigint {
  const appId = ref.app ?? requireAppId(ctx);
  assertApp(ctx, appId);
  return appId;
}

const missing = (ref: UserRef) =>
  lookupFailed(
    ref.by_user_id ? `No user with user_id "${ref.id}" in this app.` : `User ${ref.id} does not exist.`,
  );

/**
 * The user's service ID and app, checked against the caller's access; LookupError when there is none. `findFirst`,
 * not `findUnique`: Prisma merges the findUnique calls of one tick into one query, so one request's bad value would
 * fail the concurrent requests of other apps.
 */
export async function findUserId(
  ctx: Ctx,
  ref: UserRef,
  db: Pick<Db, "user"> = ctx.db,
): Promise<{ id: bigint; appId: bigint }> {
  const select = { id: true, appId: true } as const;
  if (ref.by_user_id) {
    const appId = refApp(ctx, ref);
    const u = await db.user.findFirst({ where: { appId, userId: ref.id }, select });
    if (!u) throw missing(ref);
    return u;
  }
  const u = await db.user.findFirst({ where: { id: serviceId(ref) }, select });
  if (!u) throw missing(ref);
  assertApp(ctx, u.appId);
  return u;
}

/**
 * Resolves the user inside a transaction and locks its row (`FOR UPDATE`), so that read-modify-write of props and
 * event summaries is serialised per user. With `create`, a by_user_id reference that names nobody makes the user.
 * With `columns` (of `users u`), the locked row's values come back as `row`, read by the locking statement itself.
 */
export async function lockUser<R extends object = Record<string, never>>(
  tx: Queryable,
  ctx: Ctx,
  ref: UserRef,
  opts: { create?: boolean; columns?: Prisma.Sql } = {},
): Promise<{ id: bigint; appId: bigint; created: boolean; row: R }> {
  const columns = opts.columns ? Prisma.sql`, ${opts.columns}` : Prisma.empty;
  type Locked = R & { lock_id: bigint; lock_app: bigint };
  if (ref.by_user_id) {
    const appId = refApp(ctx, ref);
    let created = false;
    if (opts.create) {
      const ins = await tx.$queryRaw<{ id: bigint }[]>(Prisma.sql`
        INSERT INTO users (app_id, user_id) VALUES (${appId}, ${ref.id})
        ON CONFLICT (app_id, user_id) DO NOTHING RETURNING id`);
      created = ins.length > 0;
    }
    const rows = await tx.$queryRaw<Locked[]>(Prisma.sql`
      SELECT u.id AS lock_id, u.app_id AS lock_app${columns} FROM users u
      WHERE u.app_id = ${appId} AND u.user_id = ${ref.id} FOR UPDATE`);
    const row = rows[0];
    if (!row) throw missing(ref);
    return { id: row.lock_id, appId, created, row };
  }
  const rows = await tx.$queryRaw<Locked[]>(Prisma.sql`
    SELECT u.id AS lock_id, u.app_id AS lock_app${columns} FROM users u WHERE u.id = ${serviceId(ref)} FOR UPDATE`);
  const row = rows[0];
  if (!row) throw missing(ref);
  assertApp(ctx, row.lock_app);
  return { id: row.lock_id, appId: row.lock_app, created: false, row };
}

/**
 * findUserId, but a by_user_id reference that names nobody creates the user (reads that the spec lets create), for
 * tokens only: a read never writes on behalf of an operator's session, which gets LookupError as for anyone unknown.
 */
export async function ensureUser(ctx: Ctx, ref: UserRef): Promise<{ id: bigint; appId: bigint }> {
  if (ref.by_user_id && ctx.actor.kind === "token") {
    const appId = refApp(ctx, ref);
    await withEvents(ctx.db, async (tx, emit) => {
      const made = await tx.$queryRaw<{ id: bigint }[]>(Prisma.sql`
        INSERT INTO users (app_id, user_id) VALUES (${appId}, ${ref.id})
        ON CONFLICT (app_id, user_id) DO NOTHING RETURNING id`);
      if (made[0]) await announceIfNewLead(tx, emit, { id: made[0].id, wasLead: false });
    });
  }
  return findUserId(ctx, ref);
}
