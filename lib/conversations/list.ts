import { sqlOf } from "../db/sql";
import type { Ctx } from "../auth/context";
import { assertApp } from "../auth/context";
import { Prisma } from "../db/generated/client";
import { listChannels } from "../channels/list-channels";
import { pageByKeyset, type KeyColumn } from "../db/keyset";
import type { Keyset, KeysetPage } from "../domain/keyset";
import { CONVERSATION_COLUMNS, mapConversation, type ConversationRow, type RawConversation } from "./rows";
import { hydrateConversations, type ConversationFields, type ConversationView } from "./view";
import type { RatingFilter } from "./schemas";

export const ASSISTANT_TYPES = [
  "dialogflow",
  "lead_bot",
  "routing_bot",
  "facebook_bot",
  "telegram_bot",
  "widget_bot",
] as const;

export interface ConversationFilters {
  closed?: boolean;
  answered?: boolean;
  delayed?: boolean;
  /** An operator's ID, or "none" for unassigned ones (the spec's 0, and v1's null). */
  assigned?: bigint | "none";
  tags?: string[];
  /** A channel's ID, or 0 for conversations without a channel. */
  channel?: bigint;
  assistantType?: (typeof ASSISTANT_TYPES)[number];
  includeNoTags?: boolean;
  includeNotAssigned?: boolean;
  rating?: RatingFilter;
}

export const CONVERSATION_KEY: KeyColumn[] = [
  { kind: "ts", sql: Prisma.sql`c.last_update` },
  { kind: "id", sql: Prisma.sql`c.id` },
];
export const conversationKey = (r: ConversationRow) => [r.lastUpdateUs, r.id];

/**
 * The Inbox's rule: nothing without a visitor's message, nothing an assistant manages. The counters' trigger
 * (migration *_conversation_counts) counts the same rows.
 */
export const INBOX_SCOPE = Prisma.sql`c.has_user_replies AND c.assistant_type IS NULL`;

export function filterSql(appId: bigint, f: ConversationFilters): Prisma.Sql {
  const conds: Prisma.Sql[] = [Prisma.sql`c.app_id = ${appId}`];
  if (f.closed !== undefined) conds.push(Prisma.sql`c.closed = ${f.closed}`);
  if (f.assistantType !== undefined) {
    // An assistant's conversations: the Inbox's own filters (delayed, answered, assigned, tags, channel) are ignored.
    conds.push(Prisma.sql`c.assistant_type = ${f.assistantType}`);
    return Prisma.join(conds, " AND ");
  }
  conds.push(INBOX_SCOPE);
  if (f.answered !== undefined) conds.push(Prisma.sql`c.answered = ${f.answered}`);
  if (f.delayed === true) conds.push(Prisma.sql`c.delayed_until > now()`);
  if (f.delayed === false) conds.push(Prisma.sql`(c.delayed_until IS NULL OR c.delayed_until <= now())`);
  // include_not_assigned / include_no_tags add the conversations without an operator / without tags to the
  // operator / tags filter; given alone, that filter is empty and they give just those conversations.
  const unassigned = Prisma.sql`c.assignee_id IS NULL`;
  if (f.assigned === "none") conds.push(unassigned);
  else if (f.assigned !== undefined) {
    const mine = Prisma.sql`c.assignee_id = ${f.assigned}`;
    conds.push(f.includeNotAssigned ? Prisma.sql`(${mine} OR ${unassigned})` : mine);
  } else if (f.includeNotAssigned) conds.push(unassigned);
  const untagged = Prisma.sql`cardinality(c.tags) = 0`;
  if (f.tags?.length) {
    const tagged = Prisma.sql`c.tags @> ${f.tags}::text[]`;
    conds.push(f.includeNoTags ? Prisma.sql`(${tagged} OR ${untagged})` : tagged);
  } else if (f.includeNoTags) conds.push(untagged);
  if (f.channel === 0n) conds.push(Prisma.sql`c.channel_id IS NULL`);
  else if (f.channel !== undefined) conds.push(Prisma.sql`c.channel_id = ${f.channel}`);
  if (f.rating !== undefined) conds.push(ratingSql(f.rating));
  return Prisma.join(conds, " AND ");
}

/** The conversations whose rating (lib/csat, conversation_ratings) matches the list's `rating` filter. */
function ratingSql(f: RatingFilter): Prisma.Sql {
  const score =
    f === "rated"
      ? Prisma.sql`r.rating IS NOT NULL`
      : f === "unrated"
        ? Prisma.sql`r.rating IS NULL`
        : f === "good"
          ? Prisma.sql`r.rating >= 4`
          : f === "bad"
            ? Prisma.sql`r.rating <= 3`
            : Prisma.sql`r.rating = ${Number(f)}`;
  return Prisma.sql`EXISTS (SELECT 1 FROM conversation_ratings r WHERE r.conversation_id = c.id AND ${score})`;
}

export interface ListInput {
  appId: bigint;
  filters: ConversationFilters;
  fields: ConversationFields;
  page: Keyset;
}

/** An app's conversations, keyset-paged by `[last_update, id]` (the API's default: newest first). */
export async function listAppConversations(
  ctx: Ctx,
  input: ListInput,
): Promise<KeysetPage<ConversationView>> {
  assertApp(ctx, input.appId);
  return pageConversations(ctx, {
    appId: input.appId,
    where: filterSql(input.appId, input.filters),
    fields: input.fields,
    page: input.page,
  });
}

/** One keyset page of the conversations matching `where`, by `[last_update, id]`, hydrated for the API. */
export async function pageConversations(
  ctx: Ctx,
  input: { appId: bigint; where: Prisma.Sql; fields: ConversationFields; page: Keyset },
): Promise<KeysetPage<ConversationView>> {
  const fetch = async (keyWhere: Prisma.Sql, order: Prisma.Sql, limit: number) => {
    const rows = await sqlOf(ctx.db).$queryRaw<RawConversation[]>`
      SELECT ${CONVERSATION_COLUMNS} FROM conversations c
      WHERE ${input.where} AND ${keyWhere} ORDER BY ${order} LIMIT ${limit}`;
    return rows.map(mapConversation);
  };
  const page = await pageByKeyset(input.page, CONVERSATION_KEY, conversationKey, fetch);
  const items = await hydrateConversations(sqlOf(ctx.db), page.items, input.fields, () =>
    listChannels(ctx, { appId: input.appId }),
  );
  return { items, next: page.next };
}
