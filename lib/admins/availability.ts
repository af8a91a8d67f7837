import { forgetOperatorsOnline } from "./operators-seen";
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";
import { assertApp, type Ctx } from "../auth/context";
import { denied, lookupFailed } from "../domain/errors";
import { withEvents, type Emit } from "../eventlog/append";
import { eventOf } from "../contract/socket";
import type { JobKind } from "../jobs/runner";
import type { AdminAvailability, Availability } from "./schemas";

/** A panel ping writes last_active at most this often: the panel pings every minute while in use. */
export const ACTIVITY_COALESCE_MS = 60_000;
const SWEEP_EVERY_MS = 60_000;

export interface AvailabilityRow {
  appId: bigint;
  adminId: bigint;
  availability: string;
  availabilityChanged: Date;
  lastActive: Date | null;
}

const secs = (d: Date) => Math.floor(d.getTime() / 1000);

export function serializeAvailability(r: AvailabilityRow): AdminAvailability {
  return {
    type: "admin_availability",
    app: Number(r.appId),
    admin_id: Number(r.adminId),
    availability: r.availability === "away" ? "away" : "available",
    changed: secs(r.availabilityChanged),
    last_active: r.lastActive ? secs(r.lastActive) : null,
  };
}

/** Teammates hear it on `admin_availability.<app>` (operators, and tokens with conversations-read). */
function emitAvailability(emit: Emit, r: AvailabilityRow) {
  // The messenger's reading of who can answer (its away state, the bots that start when nobody can) asks again.
  forgetOperatorsOnline(r.appId);
  emit(eventOf("admin_availability", r, serializeAvailability(r)));
}

const select = {
  appId: true,
  adminId: true,
  availability: true,
  availabilityChanged: true,
  lastActive: true,
} as const;

/** Availability is the operator's own to set (a session or its access token); API keys have no operator. */
function selfOf(ctx: Ctx, appId: bigint): bigint {
  assertApp(ctx, appId);
  if (ctx.actor.kind !== "admin") throw denied("Only an operator sets their own availability.");
  return ctx.actor.adminId;
}

/** The operator sets themself Available or Away in one app; a change is announced to the app's operators. */
export async function setAvailability(
  ctx: Ctx,
  input: { appId: bigint; adminId?: bigint; status: Availability },
): Promise<AvailabilityRow> {
  const self = selfOf(ctx, input.appId);
  if (input.adminId !== undefined && input.adminId !== self)
    throw denied("An operator sets only their own availability.");
  return withEvents(ctx.db, async (tx, emit) => {
    const key = { appId_adminId: { appId: input.appId, adminId: self } };
    const before = await tx.appAdmin.findUnique({ where: key, select });
    if (!before) throw lookupFailed("You are not an operator of this app.");
    const now = new Date();
    // Setting oneself Available is activity: the idle sweep must not undo it at once.
    const active = input.status === "available" ? { lastActive: now } : {};
    if (before.availability === input.status) {
      return input.status === "available" ? tx.appAdmin.update({ where: key, data: active, select }) : before;
    }
    const row = await tx.appAdmin.update({
      where: key,
      data: { availability: input.status, availabilityChanged: now, ...active },
      select,
    });
    emitAvailability(emit, row);
    return row;
  });
}

/**
 * The panel's activity ping: marks the operator active now, writing at most once per ACTIVITY_COALESCE_MS (the
 * condition skips the row otherwise). It never sets them Available again: an idle Away stays until they choose.
 */
export async function touchActivity(ctx: Ctx, input: { appId: bigint }): Promise<{ written: boolean }> {
  const self = selfOf(ctx, input.appId);
  const now = new Date();
  const since = new Date(now.getTime() - ACTIVITY_COALESCE_MS);
  const n = await ctx.db.$executeRaw`
    UPDATE app_admins SET last_active = ${now}
    WHERE app_id = ${input.appId} AND admin_id = ${self} AND (last_active IS NULL OR last_active <= ${since})`;
  if (n === 0) {
    const member = await ctx.db.appAdmin.count({ where: { appId: input.appId, adminId: self } });
    if (!member) throw lookupFailed("You are not an operator of this app.");
  }
  return { written: n > 0 };
}

/** Every operator of the app with their availability, oldest member first. */
export async function listAvailability(ctx: Ctx, input: { appId: bigint }): Promise<AvailabilityRow[]> {
  assertApp(ctx, input.appId);
  return ctx.db.appAdmin.findMany({
    where: { appId: input.appId },
    select,
    orderBy: [{ created: "asc" }, { adminId: "asc" }],
  });
}

/** Whether any operator of the app is Available (the messenger's operators_online). */
export async function isAnyoneAvailable(db: Db, appId: bigint): Promise<boolean> {
  return (await db.appAdmin.count({ where: { appId, availability: "available" } })) > 0;
}

/**
 * Sets Away every Available operator (of any app) without panel activity for `awayAfterMinutes` (since they last
 * became Available when they never pinged), and announces each.
 */
export async function sweepIdleOperators(
  db: Db,
  awayAfterMinutes: number,
  now = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - awayAfterMinutes * 60_000);
  return withEvents(db, async (tx, emit) => {
    const gone = await tx.$queryRaw<
      { app_id: bigint; admin_id: bigint; availability_changed: Date; last_active: Date | null }[]
    >(Prisma.sql`
      UPDATE app_admins SET availability = 'away', availability_changed = ${now}
      WHERE availability = 'available' AND COALESCE(last_active, availability_changed) < ${cutoff}
      RETURNING app_id, admin_id, availability_changed, last_active`);
    for (const r of gone) {
      emitAvailability(emit, {
        appId: r.app_id,
        adminId: r.admin_id,
        availability: "away",
        availabilityChanged: r.availability_changed,
        lastActive: r.last_active,
      });
    }
    return gone.length;
  });
}

export const availabilitySweepJob: JobKind = {
  name: "availability sweeper",
  everyMs: SWEEP_EVERY_MS,
  run: async (rt) => {
    await sweepIdleOperators(rt.db, rt.config.awayAfterMinutes);
  },
};
