import { Prisma } from "../db/generated/client";
import type { Db, Tx } from "../db/client";
import { assertApp, type Ctx } from "../auth/context";
import { withEvents, type Emit } from "../eventlog/append";
import { eventOf, type EventPayload } from "../contract/socket";
import { processWide } from "../config/process-wide";
import type { JobKind } from "../jobs/runner";
import { effectivePresence, PRESENCE_TTL_MS, type Presence } from "../user-model/presence-state";
import { lockUser, type UserRef } from "./resolve";
import { userSystemSelect, type UserSystemRow } from "../user-model/system-props";

/** A heartbeat after this long without one starts a new session (`$sessions` + 1). */
export const SESSION_GAP_MS = 30 * 60 * 1000;
const SWEEP_EVERY_MS = 30_000;

export interface SetPresenceInput {
  user: UserRef;
  presence: Exclude<Presence, "offline">;
  pageUrl?: string;
  pageTitle?: string;
  timezoneOffset?: number;
  /** Runs in the heartbeat's transaction when it starts a new session (the messenger records the event). */
  onNewSession?: (tx: Tx, emit: Emit, user: { id: bigint; appId: bigint }) => Promise<void>;
}

type PresenceMessage = EventPayload<"user_presence_changed">;

function emitPresence(
  emit: Emit,
  u: { id: bigint; appId: bigint; userId: string | null },
  presence: Presence,
  details: PresenceMessage["presence_details"],
) {
  emit(
    eventOf(
      "user_presence_changed",
      { appId: u.appId, userId: u.id },
      { id: u.id, app: u.appId, user_id: u.userId ?? "", presence, presence_details: details },
    ),
  );
}

/**
 * A heartbeat: the user is `online` or `idle` on a page for the next two minutes. It also marks the user seen
 * now, and counts a new session after a long gap. A change of presence is announced on user_presence_changed.
 */
export async function setPresence(ctx: Ctx, input: SetPresenceInput) {
  const now = new Date();
  const result = await withEvents(ctx.db, async (tx, emit) => {
    const { id } = await lockUser(tx, ctx, input.user);
    const row = await tx.user.findUniqueOrThrow({
      where: { id },
      select: { ...userSystemSelect, presenceDetails: true },
    });
    const before = effectivePresence(row.presence, row.lastHeartbeat, now.getTime());
    const newSession = !row.lastHeartbeat || now.getTime() - row.lastHeartbeat.getTime() > SESSION_GAP_MS;
    const details = { page_url: input.pageUrl ?? null, page_title: input.pageTitle ?? null };
    await tx.user.update({
      where: { id },
      data: {
        presence: input.presence,
        lastHeartbeat: now,
        lastSeen: now,
        presenceDetails: details,
        ...(newSession ? { sessions: { increment: 1 } } : {}),
        ...(input.timezoneOffset !== undefined ? { timezoneOffset: input.timezoneOffset } : {}),
      },
    });
    if (newSession) await input.onNewSession?.(tx, emit, { id, appId: row.appId });
    if (before !== input.presence) {
      emitPresence(emit, row, input.presence, {
        ...details,
        last_heartbeat: Math.floor(now.getTime() / 1000),
      });
    }
    return { id, appId: row.appId, presence: input.presence, previous: before };
  });
  watchApp(ctx.db, result.appId);
  return result;
}

export interface ActiveUser extends UserSystemRow {
  lastHeartbeat: Date | null;
  presenceDetails: unknown;
}

/** Users online or idle now (a heartbeat within two minutes), most recent heartbeat first. */
export async function listActiveUsers(
  ctx: Ctx,
  input: { appId: bigint; limit?: number },
): Promise<{ total: number; users: ActiveUser[] }> {
  assertApp(ctx, input.appId);
  const cutoff = new Date(Date.now() - PRESENCE_TTL_MS);
  const where = {
    appId: input.appId,
    presence: { in: ["online", "idle"] },
    lastHeartbeat: { gte: cutoff },
  } satisfies Prisma.UserWhereInput;
  const [total, users] = await Promise.all([
    ctx.db.user.count({ where }),
    ctx.db.user.findMany({
      where,
      select: { ...userSystemSelect, presenceDetails: true },
      orderBy: [{ lastHeartbeat: "desc" }, { id: "desc" }],
      take: input.limit ?? 100,
    }),
  ]);
  return { total, users };
}

/**
 * Writes `offline` for users of an app whose heartbeats stopped, and announces it. Reads never depend on it (they
 * compute presence from the heartbeat time); it exists so that subscribers hear about users leaving.
 */
export async function sweepPresence(db: Db, appId: bigint, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - PRESENCE_TTL_MS);
  return withEvents(db, async (tx, emit) => {
    const gone = await tx.$queryRaw<
      { id: bigint; user_id: string | null; last_heartbeat: Date | null }[]
    >(Prisma.sql`
      UPDATE users SET presence = 'offline'
      WHERE app_id = ${appId} AND presence IN ('online', 'idle') AND (last_heartbeat IS NULL OR last_heartbeat < ${cutoff})
      RETURNING id, user_id, last_heartbeat`);
    for (const u of gone) {
      const last = u.last_heartbeat ? Math.floor(u.last_heartbeat.getTime() / 1000) : null;
      emitPresence(emit, { id: u.id, appId, userId: u.user_id }, "offline", { last_heartbeat: last });
    }
    return gone.length;
  });
}

/** The apps with heartbeats in this process, per database: the sweep's work list. */
const watched = () => processWide("presence-apps", () => new WeakMap<Db, Set<bigint>>());

function watchApp(db: Db, appId: bigint): void {
  const apps = watched();
  let set = apps.get(db);
  if (!set) apps.set(db, (set = new Set()));
  set.add(appId);
}

/** Each instance sweeps the apps whose heartbeats reached it: its own timer, no row to claim. */
export const presenceSweepJob: JobKind = {
  name: "presence sweeper",
  everyMs: SWEEP_EVERY_MS,
  perInstance: true,
  run: async (rt) => {
    for (const app of watched().get(rt.db) ?? []) await sweepPresence(rt.db, app);
  },
};
