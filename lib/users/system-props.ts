/** System props live in typed columns; these map them to and from their `$` names. */
export const userSystemSelect = {
  id: true,
  appId: true,
  userId: true,
  presence: true,
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

export interface UserSystemRow {
  id: bigint;
  appId: bigint;
  userId: string | null;
  presence: string;
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

/** ISO 8601 without offset (UTC), as the spec shows user date-times. */
export function isoNoOffset(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "").replace(/Z$/, "");
}

/** The `props` object: known system props only (absent ones are omitted). */
export function systemProps(u: UserSystemRow, asStrings = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const put = (k: string, v: string | number | Date | null) => {
    if (v === null) return;
    const val = v instanceof Date ? isoNoOffset(v) : v;
    out[k] = asStrings ? String(val) : val;
  };
  put("$name", u.name);
  put("$email", u.email);
  put("$phone", u.phone);
  put("$avatar", u.avatar);
  put("$initial_referrer", u.initialReferrer);
  put("$country", u.country);
  put("$region", u.region);
  put("$city", u.city);
  put("$sessions", u.sessions);
  put("$last_seen", u.lastSeen);
  put("$last_contacted", u.lastContacted);
  put("$last_reply", u.lastReply);
  put("$user_id", u.userId);
  return out;
}

/** The short user inside conversations: id, app, user_id, presence, props. */
export function serializeUserShort(u: UserSystemRow) {
  return { id: u.id, app: u.appId, user_id: u.userId ?? "", presence: u.presence, props: systemProps(u) };
}
