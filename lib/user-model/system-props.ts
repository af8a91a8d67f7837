import { Prisma } from "../db/generated/client";
import { effectivePresence } from "./presence-state";

/** System props live in typed columns; these map them to and from their `$` names. */
export const userSystemSelect = {
  id: true,
  appId: true,
  userId: true,
  presence: true,
  lastHeartbeat: true,
  name: true,
  email: true,
  phone: true,
  avatar: true,
  initialReferrer: true,
  country: true,
  region: true,
  city: true,
  sessions: true,
  lastSeen: true,
  lastContacted: true,
  lastReply: true,
} as const;

/** userSystemSelect as raw SQL over `users u`: the same names and types. */
export const USER_SYSTEM_SQL = Prisma.sql`u.id, u.app_id AS "appId", u.user_id AS "userId", u.presence,
  u.last_heartbeat AS "lastHeartbeat", u.name, u.email, u.phone, u.avatar, u.initial_referrer AS "initialReferrer",
  u.country, u.region, u.city, u.sessions, u.last_seen AS "lastSeen", u.last_contacted AS "lastContacted",
  u.last_reply AS "lastReply"`;

export interface UserSystemRow {
  id: bigint;
  appId: bigint;
  userId: string | null;
  presence: string;
  /** When present, a stale heartbeat reads as `offline` (see presence-state). */
  lastHeartbeat?: Date | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  avatar: string | null;
  initialReferrer: string | null;
  country: string | null;
  region: string | null;
  city: string | null;
  sessions: number;
  lastSeen: Date | null;
  lastContacted: Date | null;
  lastReply: Date | null;
}

export type SystemPropType = "string" | "integer" | "datetime";
type Field = Exclude<keyof UserSystemRow, "id" | "appId" | "presence" | "lastHeartbeat">;

export interface SystemPropDef {
  field: Field;
  /** The SQL column (a constant, never user input). */
  column: string;
  type: SystemPropType;
  /** `$user_id` mirrors `user_id`, which only by_user_id creation and imports set. */
  readOnly?: boolean;
}

export const SYSTEM_PROPS: Readonly<Record<string, SystemPropDef>> = {
  $name: { field: "name", column: "name", type: "string" },
  $email: { field: "email", column: "email", type: "string" },
  $phone: { field: "phone", column: "phone", type: "string" },
  $avatar: { field: "avatar", column: "avatar", type: "string" },
  $initial_referrer: { field: "initialReferrer", column: "initial_referrer", type: "string" },
  $country: { field: "country", column: "country", type: "string" },
  $region: { field: "region", column: "region", type: "string" },
  $city: { field: "city", column: "city", type: "string" },
  $sessions: { field: "sessions", column: "sessions", type: "integer" },
  $last_seen: { field: "lastSeen", column: "last_seen", type: "datetime" },
  $last_contacted: { field: "lastContacted", column: "last_contacted", type: "datetime" },
  $last_reply: { field: "lastReply", column: "last_reply", type: "datetime" },
  $user_id: { field: "userId", column: "user_id", type: "string", readOnly: true },
};

export function systemProp(name: string): SystemPropDef | undefined {
  return Object.hasOwn(SYSTEM_PROPS, name) ? SYSTEM_PROPS[name] : undefined;
}

/** `$event_<type id>_first|_last|_count`: read-only props derived from the user's event summaries. */
export function parseEventProp(
  name: string,
): { typeId: bigint; part: "first" | "last" | "count" } | undefined {
  const m = /^\$event_(\d{1,18})_(first|last|count)$/.exec(name);
  return m ? { typeId: BigInt(m[1]!), part: m[2] as "first" | "last" | "count" } : undefined;
}

/** ISO 8601 without offset (UTC), as the spec shows user date-times. */
export function isoNoOffset(d: Date): string {
  const iso = d.toISOString();
  // YYYY-MM-DDTHH:mm:ss.sssZ for years 0 to 9999; beyond them the year has six digits and a sign.
  return iso.length === 24 ? iso.slice(0, 19) : iso.replace(/\.\d{3}Z$/, "").replace(/Z$/, "");
}

const SYSTEM_PROP_LIST = Object.entries(SYSTEM_PROPS);

/** The `props` object: known system props only (absent ones are omitted). */
export function systemProps(u: UserSystemRow, asStrings = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, def] of SYSTEM_PROP_LIST) {
    const v = u[def.field];
    if (v === null) continue;
    const val = v instanceof Date ? isoNoOffset(v) : v;
    out[name] = asStrings ? String(val) : val;
  }
  return out;
}

/** The short user inside conversations: id, app, user_id, presence, props. */
export function serializeUserShort(u: UserSystemRow) {
  return {
    id: u.id,
    app: u.appId,
    user_id: u.userId ?? "",
    presence: effectivePresence(u.presence, u.lastHeartbeat),
    props: systemProps(u),
  };
}
