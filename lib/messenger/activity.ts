import type { Ctx } from "../auth/context";
import type { Db } from "../db/client";
import { invalid } from "../domain/errors";
import { isOpen, nextOpening, officeHoursSchema } from "../apps/office-hours";
import { processWide } from "../config/process-wide";
import { tryRuntime } from "../server/runtime";
import { adminRoom } from "../auth/disconnect";
import { recordEvent, trackEvent } from "../events/track-event";
import type { EventRow } from "../events/serialize";
import { setPresence } from "../users/presence";
import { PRESENCE_TTL_MS, SESSION_START_EVENT } from "../user-model/presence-state";
import { setUserProps } from "../props/set-props";
import { countUnread } from "./boot";
import { operatorsSeen } from "../admins/operators-seen";

/**
 * Event names starting with `$` are the service's own: a visitor may send only these. The spec names no standard
 * events, so the messenger's page view is ours: `$page_view` {url, title, referrer}.
 */
export const VISITOR_STANDARD_EVENTS: readonly string[] = ["$page_view"];

export async function trackVisitorEvent(
  ctx: Ctx,
  input: { userId: bigint; name: string; params?: Record<string, unknown> },
): Promise<EventRow> {
  if (input.name.startsWith("$") && !VISITOR_STANDARD_EVENTS.includes(input.name)) {
    throw invalid({
      name: `event names starting with $ are reserved; a visitor may send ${VISITOR_STANDARD_EVENTS.join(", ")}`,
    });
  }
  return trackEvent(ctx, { user: { id: String(input.userId) }, event: input.name, params: input.params });
}

/**
 * A visitor's presence is written at most once per this long while nothing it shows changes. Well inside the
 * presence TTL: a written heartbeat keeps the visitor online until the next write is due.
 */
export const PRESENCE_WRITE_EVERY_MS = Math.min(60_000, PRESENCE_TTL_MS / 2);
const MAX_REMEMBERED = 100_000;

interface Written {
  at: number;
  /** What the last write showed: a change (another page, another timezone) is written at once. */
  shown: string;
  referrerKept: boolean;
}

/** Per database (tests run several servers in one process), per visitor: the last presence write. */
const written = () => processWide("messenger.presence-writes", () => new WeakMap<Db, Map<bigint, Written>>());

function memoryOf(db: Db): Map<bigint, Written> {
  const all = written();
  let m = all.get(db);
  if (!m) all.set(db, (m = new Map<bigint, Written>()));
  return m;
}

function forgetOld(m: Map<bigint, Written>, now: number): void {
  if (m.size < MAX_REMEMBERED) return;
  for (const [k, w] of m) if (now - w.at >= PRESENCE_WRITE_EVERY_MS) m.delete(k);
  // Still full (a burst of new visitors): forgetting only costs one early write each.
  if (m.size >= MAX_REMEMBERED) m.clear();
}

export interface HeartbeatInput {
  userId: bigint;
  url?: string;
  referrer?: string;
  title?: string;
  timezoneOffset?: number;
}

/**
 * The messenger's heartbeat (every ~20 s per open page). Coalesced: ten thousand visitors must not mean ten
 * thousand writes every 20 s. Written when this instance has not written the visitor's presence for
 * PRESENCE_WRITE_EVERY_MS (so offline → online, which needs a heartbeat older than the TTL, is written and announced
 * at once), or when what it shows changed; otherwise only remembered. Answers whether it wrote.
 */
export async function visitorHeartbeat(ctx: Ctx, input: HeartbeatInput): Promise<boolean> {
  const now = Date.now();
  const memory = memoryOf(ctx.db);
  const shown = JSON.stringify([input.url ?? null, input.title ?? null, input.timezoneOffset ?? null]);
  const last = memory.get(input.userId);
  if (last && now - last.at < PRESENCE_WRITE_EVERY_MS && last.shown === shown) return false;
  forgetOld(memory, now);
  await setPresence(ctx, {
    user: { id: String(input.userId) },
    presence: "online",
    pageUrl: input.url,
    pageTitle: input.title,
    timezoneOffset: input.timezoneOffset,
    onNewSession: (tx, emit, u) => {
      const props = input.url === undefined ? {} : { url: input.url };
      const at = new Date(now);
      return recordEvent(tx, emit, {
        appId: u.appId,
        userId: u.id,
        name: SESSION_START_EVENT,
        created: at,
        props,
      }).then(() => undefined);
    },
  });
  let referrerKept = last?.referrerKept ?? false;
  if (input.referrer && !referrerKept) {
    // Once per visitor: set_once leaves an existing referrer as it was.
    await setUserProps(ctx, {
      user: { id: String(input.userId) },
      operations: [{ op: "set_once", key: "$initial_referrer", value: input.referrer }],
    });
    referrerKept = true;
  }
  memory.set(input.userId, { at: now, shown, referrerKept });
  return true;
}

/** Forgets the visitor's last write (a logout, a merge): its next heartbeat is written. */
export function forgetVisitorPresence(db: Db, userId: bigint): void {
  memoryOf(db).delete(userId);
}

const OPERATORS_CACHE_MS = 10_000;

/** Who can answer the app's visitors now; `opensAt`: closed by its office hours, when they open next. */
interface Operators {
  online: boolean;
  opensAt: Date | null;
}

/**
 * Whether an operator of the app can answer now: within the app's office hours (lib/apps/office-hours.ts), one who
 * is Available (lib/admins/availability.ts) has a socket connected (the panel keeps one open; through the Redis
 * adapter, on any instance). Outside office hours, also when they open next (nextOpening). Kept a few seconds per
 * app, so that heartbeats do not each ask every instance; an opening that has come is not kept past it.
 */
export async function operatorsNow(ctx: Pick<Ctx, "db">, appId: bigint): Promise<Operators> {
  const now = Date.now();
  const cache = operatorsSeen();
  const hit = cache.get(appId);
  if (hit && now - hit.at < OPERATORS_CACHE_MS && !(hit.opensAt && hit.opensAt.getTime() <= now)) return hit;
  const io = tryRuntime()?.io;
  let online = false;
  const app = await ctx.db.app.findUnique({
    where: { id: appId },
    select: { timeZone: true, officeHours: true },
  });
  const hours = officeHoursSchema.nullable().safeParse(app?.officeHours ?? null);
  const timeZone = app?.timeZone ?? "UTC";
  const at = new Date(now);
  const inHours = !hours.success || isOpen(hours.data, timeZone, at);
  const opensAt = hours.success && !inHours ? nextOpening(hours.data, timeZone, at) : null;
  if (io && inHours) {
    const admins = await ctx.db.appAdmin.findMany({
      where: { appId, availability: "available" },
      select: { adminId: true },
    });
    if (admins.length) {
      try {
        online = (await io.in(admins.map((a) => adminRoom(a.adminId))).fetchSockets()).length > 0;
      } catch {
        // Another instance did not answer in time: what this one knows.
        online = (await io.local.in(admins.map((a) => adminRoom(a.adminId))).fetchSockets()).length > 0;
      }
    }
  }
  if (cache.size > 10_000) cache.clear();
  cache.set(appId, { at: now, online, opensAt });
  return { online, opensAt };
}

/** operators_online and opens_at, as the boot and the heartbeat answer them. */
export async function operatorsAnswer(ctx: Pick<Ctx, "db">, appId: bigint) {
  const operators = await operatorsNow(ctx, appId);
  return { operators_online: operators.online, opens_at: operators.opensAt?.toISOString() ?? null };
}

export async function heartbeatAnswer(ctx: Ctx, input: { appId: bigint; userId: bigint }) {
  return { unread: await countUnread(ctx, input.userId), ...(await operatorsAnswer(ctx, input.appId)) };
}
