import { Prisma } from "../db/generated/client";
import type { Tx } from "../db/client";
import type { Emit } from "../eventlog/append";
import { announceIfNewLead } from "../users/lead-events";
import { isoNoOffset, SYSTEM_PROPS } from "../user-model/system-props";
import { jsonOfProp, parseCustomProps } from "../user-model/prop-values";
import type { AttachmentUrl } from "../attachments/sign";
import { selectConversations } from "../conversations/rows";
import { eventOf } from "../contract/socket";
import { hydrateConversations, LIST_FIELDS, serializeConversation } from "../conversations/view";

type UserRow = Prisma.UserGetPayload<object>;

/** Dates where the later one is the truth (when the user was last seen, contacted, replied to). */
const LATEST: readonly (keyof UserRow)[] = ["lastSeen", "lastContacted", "lastReply"];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const later = (a: Date | null, b: Date | null) => (!a ? b : !b ? a : a > b ? a : b);

/**
 * The target's columns after taking in the source: what the target lacks (system props, their sources), the latest
 * dates, the summed counters, and presence from whichever had the newer heartbeat. Custom props are named in `props`
 * but merged by the database (mergeUsers): Prisma's JSON reads round long integers. Pure.
 */
export function mergedColumns(
  into: UserRow,
  from: UserRow,
): { data: Prisma.UserUpdateInput; props: string[] } {
  const data: Record<string, unknown> = {};
  const props: string[] = [];
  for (const [name, def] of Object.entries(SYSTEM_PROPS)) {
    if (def.readOnly || def.field === "sessions") continue;
    const mine = into[def.field];
    const theirs = from[def.field];
    if (theirs === null) continue;
    if (mine === null) {
      data[def.field] = theirs;
      props.push(name);
    } else if (
      LATEST.includes(def.field) &&
      mine instanceof Date &&
      theirs instanceof Date &&
      theirs > mine
    ) {
      data[def.field] = theirs;
      props.push(name);
    }
  }
  if (from.sessions > 0) {
    data.sessions = into.sessions + from.sessions;
    props.push("$sessions");
  }
  const custom = isObject(into.propsCustom) ? into.propsCustom : {};
  for (const k of Object.keys(isObject(from.propsCustom) ? from.propsCustom : {})) {
    if (!Object.hasOwn(custom, k)) props.push(k);
  }
  const sources = isObject(into.propsSources) ? { ...into.propsSources } : {};
  const theirSources = isObject(from.propsSources) ? from.propsSources : {};
  // A source goes with the value it describes: only for props the target took from the visitor.
  const took = Object.entries(theirSources).filter(([k]) => props.includes(k) && !Object.hasOwn(sources, k));
  if (took.length) data.propsSources = { ...sources, ...Object.fromEntries(took) };
  if (from.lastHeartbeat && later(into.lastHeartbeat, from.lastHeartbeat) === from.lastHeartbeat) {
    data.lastHeartbeat = from.lastHeartbeat;
    data.presence = from.presence;
    data.presenceDetails = from.presenceDetails;
  }
  if (into.timezoneOffset === null && from.timezoneOffset !== null) data.timezoneOffset = from.timezoneOffset;
  if (from.conversationCount > 0) data.conversationCount = into.conversationCount + from.conversationCount;
  if (from.webpushSubscribed && !into.webpushSubscribed) data.webpushSubscribed = true;
  return { data: data, props };
}

/**
 * Moves everything of the anonymous visitor `from` to the user `into` and deletes `from`, in the caller's
 * transaction, both rows locked by the caller. The device rows follow, so the visitor's browsers boot as `into`.
 * Open Inboxes hear of each moved conversation (on `conversation`), now under its user.
 */
export async function mergeUsers(
  tx: Tx,
  emit: Emit,
  urls: AttachmentUrl,
  from: UserRow,
  into: UserRow,
): Promise<void> {
  const moved = await tx.$queryRaw<{ id: bigint }[]>(Prisma.sql`
    UPDATE conversations SET user_id = ${into.id} WHERE user_id = ${from.id} RETURNING id`);
  if (moved.length) {
    // Only the visitor's own conversations hold its parts: found through them, not by scanning every part.
    await tx.conversationPart.updateMany({
      where: { conversationId: { in: moved.map((c) => c.id) }, fromUserId: from.id },
      data: { fromUserId: into.id },
    });
  }
  await tx.$executeRaw(Prisma.sql`UPDATE events SET user_id = ${into.id} WHERE user_id = ${from.id}`);
  await tx.$executeRaw(Prisma.sql`
    INSERT INTO user_event_summaries AS s (user_id, event_type_id, "first", "last", "count")
    SELECT ${into.id}, event_type_id, "first", "last", "count" FROM user_event_summaries WHERE user_id = ${from.id}
    ON CONFLICT (user_id, event_type_id) DO UPDATE SET
      "first" = LEAST(s."first", EXCLUDED."first"),
      "last" = GREATEST(s."last", EXCLUDED."last"),
      "count" = s."count" + EXCLUDED."count"`);
  await tx.$executeRaw(Prisma.sql`
    INSERT INTO user_tags (user_id, app_id, tag, created)
    SELECT ${into.id}, app_id, tag, created FROM user_tags WHERE user_id = ${from.id}
    ON CONFLICT (user_id, tag) DO NOTHING`);
  await tx.$executeRaw(Prisma.sql`UPDATE user_notes SET user_id = ${into.id} WHERE user_id = ${from.id}`);
  await tx.$executeRaw(
    Prisma.sql`UPDATE messenger_devices SET user_id = ${into.id} WHERE user_id = ${from.id}`,
  );

  const { data, props } = mergedColumns(into, from);
  // In the database, where long integers keep their digits: the target's own values win.
  await tx.$executeRaw(Prisma.sql`
    UPDATE users i SET props_custom = f.props_custom || i.props_custom
    FROM users f WHERE i.id = ${into.id} AND f.id = ${from.id} AND f.props_custom <> '{}'::jsonb`);
  // Deleted first: its summaries, tags and refresh tokens go with it (the cascade).
  await tx.user.delete({ where: { id: from.id } });
  if (Object.keys(data).length) await tx.user.update({ where: { id: into.id }, data });
  await announceIfNewLead(tx, emit, { id: into.id, wasLead: into.isLead });
  if (props.length) {
    const after = await tx.user.findUniqueOrThrow({ where: { id: into.id } });
    const [row] = await tx.$queryRaw<{ json: string }[]>(
      Prisma.sql`SELECT props_custom::text AS json FROM users WHERE id = ${into.id}`,
    );
    const custom = parseCustomProps(row?.json);
    const shown: Record<string, unknown> = {};
    for (const k of props) {
      const def = SYSTEM_PROPS[k];
      const v = def ? after[def.field] : jsonOfProp(custom[k]);
      shown[k] = v instanceof Date ? isoNoOffset(v) : (v ?? null);
    }
    emit(
      eventOf(
        "user_props_changed",
        { appId: into.appId, userId: into.id },
        { user: into.id, app: into.appId, props: shown },
      ),
    );
  }
  const views = await hydrateConversations(
    tx,
    await selectConversations(
      tx,
      moved.map((c) => c.id),
    ),
    LIST_FIELDS,
  );
  for (const v of views) emit(eventOf("conversation", v.row, serializeConversation(v, { version: 2, urls })));
}
