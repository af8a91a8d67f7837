import type { Random } from "./random";
import {
  COMPANIES,
  EVENT_TYPES,
  FIRST_NAMES,
  INTERESTS,
  LAST_NAMES,
  ADMINS,
  PAGES,
  PLACES,
  PLANS,
  REFERRERS,
  SIGNUP_SOURCES,
  USER_NOTES,
  USER_TAGS,
} from "./fixtures";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A user before it has an id; the conversation plan fills in the fields that depend on conversations. */
export interface UserPlan {
  created: Date;
  lastSeen: Date;
  name: string | null;
  email: string | null;
  phone: string | null;
  userId: string | null;
  country: string | null;
  region: string | null;
  city: string | null;
  initialReferrer: string | null;
  sessions: number;
  propsCustom: Record<string, string | number | boolean | string[]>;
  webpush: boolean;
  tags: string[];
  note: { admin: number; body: string; created: Date } | null;
  lastReply: Date | null;
  lastContacted: Date | null;
  conversationCount: number;
}

export interface EventPlan {
  user: number;
  /** Index into EVENT_TYPES. */
  type: number;
  created: Date;
  props: Record<string, string | number>;
}

const slug = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[^A-Za-z0-9]+/g, "")
    .toLowerCase();

const between = (rnd: Random, from: Date, to: Date) =>
  new Date(from.getTime() + Math.floor(rnd.next() * Math.max(0, to.getTime() - from.getTime())));

/** About two thirds known people (name, email…), the rest anonymous visitors that only have a location. */
export function planUsers(rnd: Random, now: Date, count: number): UserPlan[] {
  const users: UserPlan[] = [];
  for (let i = 0; i < count; i++) {
    const lastSeen = new Date(now.getTime() - Math.floor(rnd.skewed(0, 60 * DAY, 1.6)));
    const created = new Date(lastSeen.getTime() - Math.floor(rnd.skewed(HOUR, 150 * DAY, 1.3)));
    const known = rnd.chance(0.66);
    const place = rnd.chance(known ? 0.95 : 0.8) ? rnd.pick(PLACES) : null;
    const activeDays = (lastSeen.getTime() - created.getTime()) / DAY;
    const user: UserPlan = {
      created,
      lastSeen,
      name: null,
      email: null,
      phone: null,
      userId: null,
      country: place?.[0] ?? null,
      region: place?.[1] ?? null,
      city: place?.[2] ?? null,
      initialReferrer: rnd.chance(0.6) ? rnd.pick(REFERRERS) : null,
      sessions: 1 + Math.floor(rnd.next() * Math.min(120, activeDays * (known ? 0.8 : 0.2))),
      propsCustom: {},
      webpush: rnd.chance(known ? 0.15 : 0.08),
      tags: [],
      note: null,
      lastReply: null,
      lastContacted: null,
      conversationCount: 0,
    };
    if (known) describeKnownUser(rnd, user, i);
    else if (rnd.chance(0.4)) user.propsCustom = { landing_page: rnd.pick(PAGES) };
    users.push(user);
  }
  return users;
}

function describeKnownUser(rnd: Random, user: UserPlan, i: number): void {
  const first = rnd.pick(FIRST_NAMES);
  const last = rnd.pick(LAST_NAMES);
  const company = rnd.chance(0.7) ? rnd.pick(COMPANIES) : null;
  const hasName = rnd.chance(0.95);
  if (hasName) user.name = `${first} ${last}`;
  if (!hasName || rnd.chance(0.85)) {
    const domain = company ? `${slug(company)}.example` : rnd.pick(["gmail.com", "outlook.com", "proton.me"]);
    user.email = `${slug(first)}.${slug(last)}${i}@${domain}`;
  }
  if (rnd.chance(0.35)) user.phone = `+1 555 ${rnd.int(100, 999)} ${rnd.int(1000, 9999)}`;
  if (rnd.chance(0.5)) user.userId = `cus_${10_000 + i}`;
  const plan = rnd.pick(PLANS);
  const paying = plan !== "free";
  user.propsCustom = {
    plan,
    signup_source: rnd.pick(SIGNUP_SOURCES),
    trial: !paying && rnd.chance(0.4),
    interests: rnd.sample(INTERESTS, rnd.int(1, 3)),
    ...(company ? { company } : {}),
    ...(paying ? { seats: rnd.int(1, 60), mrr: Math.round(rnd.skewed(19, 2500) * 100) / 100 } : {}),
  };
  if (rnd.chance(0.25)) user.tags = rnd.sample(USER_TAGS, rnd.int(1, 2));
  if (rnd.chance(0.12)) {
    user.note = {
      admin: rnd.int(0, ADMINS.length - 1),
      body: rnd.pick(USER_NOTES),
      created: between(rnd, user.created, user.lastSeen),
    };
  }
}

const typeIndex = (name: (typeof EVENT_TYPES)[number]["name"]) =>
  EVENT_TYPES.findIndex((t) => t.name === name);

/** Events between each user's first and last visit, oldest first (so ids grow with time). */
export function planEvents(rnd: Random, users: readonly UserPlan[]): EventPlan[] {
  const events: EventPlan[] = [];
  const add = (user: number, name: (typeof EVENT_TYPES)[number]["name"], created: Date, props = {}) =>
    events.push({ user, type: typeIndex(name), created, props });
  users.forEach((u, i) => {
    const anyTime = () => between(rnd, u.created, u.lastSeen);
    add(i, "Viewed page", u.created, { url: rnd.pick(PAGES) });
    for (let k = rnd.int(0, u.name || u.email ? 10 : 4); k > 0; k--)
      add(i, "Viewed page", anyTime(), { url: rnd.pick(PAGES) });
    const plan = u.propsCustom.plan;
    if (plan === undefined) return;
    add(
      i,
      "Signed up",
      new Date(Math.min(u.created.getTime() + rnd.int(1, 30) * MINUTE, u.lastSeen.getTime())),
    );
    for (let k = rnd.int(0, 4); k > 0; k--) add(i, "Viewed pricing", anyTime());
    if (plan !== "free" || u.propsCustom.trial) add(i, "Started trial", anyTime());
    for (let k = rnd.int(0, 2); k > 0; k--) add(i, "Invited teammate", anyTime());
    if (plan !== "free") {
      add(i, "Added payment method", anyTime());
      for (let k = rnd.int(1, 4); k > 0; k--)
        add(i, "Completed purchase", anyTime(), { amount: rnd.pick([19, 49, 99, 249]) });
    }
  });
  return events.sort((a, b) => a.created.getTime() - b.created.getTime());
}
