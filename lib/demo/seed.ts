import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { addAdminToApp } from "../admins/create-admin";
import { createAppInTx } from "../apps/create-app";
import { directionOf } from "../parts/state";
import {
  conversationState,
  planConversations,
  type ConversationPlan,
  type StoredPart,
} from "./conversations";
import {
  CHANNELS,
  DEMO_APP_NAME,
  DEMO_EMAIL,
  DEMO_PASSWORD,
  EVENT_TYPES,
  ADMINS,
  SEGMENTS,
} from "./fixtures";
import { planEvents, planUsers, type UserPlan } from "./people";
import { Random } from "./random";

type Tx = Prisma.TransactionClient;

export interface SeedOptions {
  now?: Date;
  users?: number;
  conversations?: number;
  /** The PRNG seed: the same seed gives the same workspace. */
  seed?: number;
  /** Runs last inside the transaction (tests use it to prove that a failure leaves nothing behind). */
  beforeCommit?: (tx: Tx) => Promise<void>;
}

export interface SeedResult {
  appId: bigint;
  /** A token with every scope, shown once. */
  token: string;
  adminEmail: string;
  adminPassword: string;
}

// Several instances may start on one empty PostgreSQL database at once: only one of them seeds.
const SEED_LOCK = 727_002;

/**
 * Creates the demo workspace on a fresh database (no app and no admin yet) and returns how to use it, or null
 * when there was data already. One transaction: a process killed half-way leaves nothing, and the next start
 * seeds again.
 */
export async function seedDemo(db: Db, opts: SeedOptions = {}): Promise<SeedResult | null> {
  if (!(await isFresh(db))) return null;
  const now = opts.now ?? new Date();
  const rnd = new Random(opts.seed ?? 20_240_611);
  const users = planUsers(rnd, now, opts.users ?? 200);
  const conversations = planConversations(rnd, now, users, opts.conversations ?? 50);
  const events = planEvents(rnd, users);

  return db.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${SEED_LOCK})`);
      if (!(await isFresh(tx))) return null;
      const { app, admin, token } = await createAppInTx(tx, {
        name: DEMO_APP_NAME,
        adminEmail: DEMO_EMAIL,
        adminPassword: DEMO_PASSWORD,
        adminName: ADMINS[0].name,
      });
      const appId = app.id;
      const adminIds = [admin.id];
      for (const op of ADMINS.slice(1)) {
        const added = await addAdminToApp(
          tx,
          appId,
          { email: op.email, password: DEMO_PASSWORD, name: op.name },
          op.role,
        );
        adminIds.push(added.admin.id);
      }
      const adminAt = (i: number | null) => (i === null ? null : (adminIds[i] ?? null));

      const userIds = await insertUsers(tx, appId, users, adminAt);
      await insertEvents(tx, appId, events, userIds);
      await tx.segment.createMany({
        data: SEGMENTS.map((s) => ({ appId, name: s.name, filters: s.filters })),
      });
      const channelIds = await insertChannels(tx, appId);
      await insertConversations(tx, { appId, now, plans: conversations, userIds, channelIds, adminAt });
      await opts.beforeCommit?.(tx);
      return { appId, token, adminEmail: DEMO_EMAIL, adminPassword: DEMO_PASSWORD };
    },
    // PGlite does everything on one thread: a slow machine needs far more than the default 5 s.
    { timeout: 120_000, maxWait: 60_000 },
  );
}

async function isFresh(db: Pick<Db, "app" | "admin">): Promise<boolean> {
  return (await db.app.count()) === 0 && (await db.admin.count()) === 0;
}

/** Ids taken from the table's sequence up front, so that rows can point at each other before they are written. */
async function allocateIds(tx: Tx, table: string, n: number): Promise<bigint[]> {
  if (n === 0) return [];
  const rows = await tx.$queryRawUnsafe<{ id: bigint }[]>(
    `SELECT nextval(pg_get_serial_sequence($1, 'id'))::bigint AS id FROM generate_series(1, $2::int)`,
    table,
    n,
  );
  return rows.map((r) => BigInt(r.id)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

const byTime = <T extends { created: Date }>(items: readonly T[]) =>
  items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => a.item.created.getTime() - b.item.created.getTime());

async function insertUsers(
  tx: Tx,
  appId: bigint,
  users: readonly UserPlan[],
  adminAt: (i: number | null) => bigint | null,
): Promise<bigint[]> {
  const ids = await allocateIds(tx, "users", users.length);
  const userIds: bigint[] = new Array<bigint>(users.length);
  byTime(users).forEach(({ index }, k) => (userIds[index] = ids[k] as bigint));
  await tx.user.createMany({
    data: users.map((u, i) => {
      // The lead flags follow from these columns (a trigger keeps them).
      return {
        id: userIds[i] as bigint,
        appId,
        userId: u.userId,
        created: u.created,
        name: u.name,
        email: u.email,
        phone: u.phone,
        country: u.country,
        region: u.region,
        city: u.city,
        initialReferrer: u.initialReferrer,
        sessions: u.sessions,
        lastSeen: u.lastSeen,
        lastReply: u.lastReply,
        lastContacted: u.lastContacted,
        propsCustom: u.propsCustom,
        webpushSubscribed: u.webpush,
        conversationCount: u.conversationCount,
      };
    }),
  });
  await tx.userTag.createMany({
    data: users.flatMap((u, i) =>
      u.tags.map((tag) => ({ appId, userId: userIds[i] as bigint, tag, created: u.created })),
    ),
  });
  await tx.userNote.createMany({
    data: users.flatMap((u, i) =>
      u.note
        ? [
            {
              appId,
              userId: userIds[i] as bigint,
              adminId: adminAt(u.note.admin),
              body: u.note.body,
              created: u.note.created,
            },
          ]
        : [],
    ),
  });
  return userIds;
}

async function insertEvents(
  tx: Tx,
  appId: bigint,
  events: ReturnType<typeof planEvents>,
  userIds: readonly bigint[],
): Promise<void> {
  const types = await tx.eventType.createManyAndReturn({
    data: EVENT_TYPES.map((t) => ({ appId, name: t.name, score: t.score })),
    select: { id: true, name: true },
  });
  const typeIds = EVENT_TYPES.map((t) => types.find((r) => r.name === t.name)?.id as bigint);
  await tx.event.createMany({
    data: events.map((e) => ({
      appId,
      userId: userIds[e.user] as bigint,
      typeId: typeIds[e.type] as bigint,
      created: e.created,
      props: e.props,
    })),
  });
  // Derived from the rows just written, so the summaries cannot disagree with the events.
  await tx.$executeRaw`
    INSERT INTO user_event_summaries (user_id, event_type_id, "first", "last", "count")
    SELECT user_id, type_id, min(created), max(created), count(*)::int
    FROM events WHERE app_id = ${appId} GROUP BY user_id, type_id`;
}

async function insertChannels(tx: Tx, appId: bigint): Promise<bigint[]> {
  const existing = await tx.channel.findMany({ where: { appId }, select: { id: true, name: true } });
  const missing = CHANNELS.filter((name) => !existing.some((c) => c.name === name));
  const created = await tx.channel.createManyAndReturn({
    data: missing.map((name) => ({ appId, name, type: "manual" })),
    select: { id: true, name: true },
  });
  const all = [...existing, ...created];
  return CHANNELS.map((name) => all.find((c) => c.name === name)?.id as bigint);
}

interface ConversationsInput {
  appId: bigint;
  now: Date;
  plans: readonly ConversationPlan[];
  userIds: readonly bigint[];
  channelIds: readonly bigint[];
  adminAt: (i: number | null) => bigint | null;
}

async function insertConversations(tx: Tx, input: ConversationsInput): Promise<void> {
  const { appId, now, plans, userIds, channelIds, adminAt } = input;
  const starts = plans.map((p) => ({ created: p.parts[0]?.created ?? now }));
  const convIds = await allocateIds(tx, "conversations", plans.length);
  const conversationIds: bigint[] = new Array<bigint>(plans.length);
  byTime(starts).forEach(({ index }, k) => (conversationIds[index] = convIds[k] as bigint));

  const flat = plans.flatMap((p, c) => p.parts.map((part) => ({ ...part, conversation: c })));
  const partIds = await allocateIds(tx, "conversation_parts", flat.length);
  const stored = new Array<StoredPart & (typeof flat)[number]>(flat.length);
  byTime(flat).forEach(({ item, index }, k) => {
    const id = partIds[k] as bigint;
    stored[index] = {
      ...item,
      id,
      fromAdminId: adminAt(item.admin),
      assigneeId: adminAt(item.assignee),
    };
  });

  await tx.conversation.createMany({
    data: plans.map((p, c) => {
      const parts = stored.filter((s) => s.conversation === c).sort((a, b) => (a.id < b.id ? -1 : 1));
      return {
        id: conversationIds[c] as bigint,
        appId,
        userId: userIds[p.user] as bigint,
        channelId: channelIds[p.channel] ?? null,
        created: parts[0]?.created ?? now,
        ...conversationState(parts, p.seenByAdmin),
      };
    }),
  });
  await tx.conversationPart.createMany({
    data: stored.map((s) => {
      const fromUser = s.type === "reply_user";
      return {
        id: s.id,
        appId,
        conversationId: conversationIds[s.conversation] as bigint,
        created: s.created,
        body: s.body,
        read: s.read,
        type: s.type,
        direction: directionOf(s.type),
        sentVia: fromUser ? "web_user" : "app_desktop",
        // A part sent on its own is its own group.
        partGroup: s.id,
        fromUserId: fromUser ? (userIds[plans[s.conversation]?.user ?? -1] ?? null) : null,
        fromAdminId: s.fromAdminId,
        assigneeId: s.type === "assigned" ? s.assigneeId : null,
      };
    }),
  });
}
