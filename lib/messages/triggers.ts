import type { Db } from "../db/client";
import { processWide } from "../config/process-wide";
import { specOf, type MessageSpec } from "./spec";

/**
 * Which active messages an event triggers, decided in memory: per app, the active messages by trigger event name,
 * read once and kept for CACHE_MS (a change on this instance forgets them at once; another instance's change is
 * seen within CACHE_MS). No query per message or per event.
 */
export const CACHE_MS = 5_000;

interface AppTriggers {
  at: number;
  byEvent: Map<string, MessageSpec[]>;
  /** The count of changes (this process) it was read after. */
  seen: number;
}

/** Per database (tests run several servers in one process), per app. */
const caches = () =>
  processWide("messages.triggers", () => new WeakMap<Db, Map<bigint, Promise<AppTriggers>>>());

/**
 * A change to messages (this instance): every cache is read again at its next use. Every app's and every
 * database's: the change's database is not at hand here, changes are rare, and forgetting costs one read.
 */
export function forgetMessages(): void {
  changes().n++;
}
/** Changes to messages in this process, counted: each cache and memo knows which it has seen. */
const changes = () => processWide("messages.changes", () => ({ n: 0 }));

async function load(db: Db, appId: bigint): Promise<AppTriggers> {
  const seen = changes().n;
  const rows = await db.autoMessage.findMany({ where: { appId, status: "active" }, orderBy: { id: "asc" } });
  const byEvent = new Map<string, MessageSpec[]>();
  for (const r of rows) {
    let spec: MessageSpec;
    try {
      spec = specOf(r);
    } catch {
      continue; // A row edited by hand into a shape no longer valid triggers nothing.
    }
    const list = byEvent.get(spec.trigger.event) ?? [];
    list.push(spec);
    byEvent.set(spec.trigger.event, list);
  }
  return { at: Date.now(), byEvent, seen };
}

async function appTriggers(db: Db, appId: bigint) {
  let perDb = caches().get(db);
  if (!perDb) caches().set(db, (perDb = new Map<bigint, Promise<AppTriggers>>()));
  let entry = perDb.get(appId);
  const stale = async (e: Promise<AppTriggers>) => {
    const t = await e;
    return Date.now() - t.at > CACHE_MS || t.seen !== changes().n;
  };
  if (!entry || (await stale(entry))) {
    entry = load(db, appId);
    perDb.set(appId, entry);
    entry.catch(() => perDb.delete(appId));
  }
  return entry;
}

/** `*` any run of characters; the rest literal; the whole URL, case-insensitive. */
const patterns = new Map<string, RegExp>();
export function urlMatches(pattern: string, url: string): boolean {
  let re = patterns.get(pattern);
  if (!re) {
    const body = pattern
      .split("*")
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*");
    re = new RegExp(`^${body}$`, "i");
    if (patterns.size > 10_000) patterns.clear();
    patterns.set(pattern, re);
  }
  return re.test(url);
}

export interface TriggerEvent {
  appId: bigint;
  name: string;
  props: Record<string, unknown>;
}

/** The apps' active messages, read before a transaction that matches events against them. */
export type TriggerSnapshot = Map<bigint, AppTriggers>;

export async function triggerSnapshot(db: Db, appIds: Iterable<bigint>): Promise<TriggerSnapshot> {
  const out: TriggerSnapshot = new Map();
  for (const id of new Set(appIds)) out.set(id, await appTriggers(db, id));
  return out;
}

/** Whether any app has an active message (read at most once per CACHE_MS): none, and no event needs reading. */
export async function anyActive(db: Db): Promise<boolean> {
  const memo = processWide(
    "messages.any-active",
    () => new WeakMap<Db, { at: number; any: boolean; seen: number }>(),
  );
  const m = memo.get(db);
  if (m && Date.now() - m.at < CACHE_MS && m.seen === changes().n) return m.any;
  const seen = changes().n;
  const any = (await db.autoMessage.count({ where: { status: "active" }, take: 1 })) > 0;
  memo.set(db, { at: Date.now(), any, seen });
  return any;
}

/** The active messages this event triggers (its app in the snapshot). */
export function messagesTriggeredBy(snap: TriggerSnapshot, e: TriggerEvent): MessageSpec[] {
  const candidates = snap.get(e.appId)?.byEvent.get(e.name);
  if (!candidates) return [];
  return candidates.filter((m) => {
    const t = m.trigger;
    if (t.url !== undefined && !(typeof e.props.url === "string" && urlMatches(t.url, e.props.url)))
      return false;
    if (t.message !== undefined && String(e.props.message) !== String(t.message)) return false;
    return true;
  });
}

/** The active messages whose goal is this event (the consumer records goals and stops on them). */
export function messagesWithGoal(snap: TriggerSnapshot, appId: bigint, name: string): MessageSpec[] {
  const all = snap.get(appId)?.byEvent;
  return all ? [...all.values()].flat().filter((m) => m.goal?.event === name) : [];
}
