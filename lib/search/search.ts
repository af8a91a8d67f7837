import { sqlOf } from "../db/sql";
import { assertApp, type Ctx } from "../auth/context";
import { invalid } from "../domain/errors";
import { parseId } from "../contract/zod";
import { markContains, matchedField, MIN_FUZZY, splitMarked, tsQueryText } from "./query";
import type { Highlight, UserField } from "./schemas";
import {
  messagesStatement,
  recentUsersSetting,
  USERS_CAP,
  usersBoundStatement,
  usersStatement,
  visitorConversationsStatement,
  type SearchInput,
} from "./statements";

interface Visitor {
  id: bigint;
  name: string | null;
  email: string | null;
  phone: string | null;
  userId: string | null;
}

interface ConversationSide {
  conversationId: bigint;
  closed: boolean;
  assigneeId: bigint | null;
  lastUpdate: Date;
  visitor: Visitor;
}

export interface MessageFound extends ConversationSide {
  partId: bigint;
  partType: string;
  created: Date;
  highlight: Highlight;
}

export interface ConversationFound extends ConversationSide {
  field: UserField;
  highlight: Highlight;
}

export interface LeadFound extends Visitor {
  isLead: boolean;
  lastSeen: Date | null;
  field: UserField;
  highlight: Highlight;
}

export interface SearchFound {
  messages: MessageFound[];
  conversations: ConversationFound[];
  leads: LeadFound[];
  next: string | null;
}

/**
 * The Inbox's search: conversations by the text of their replies and notes (the parts' generated full-text column,
 * GIN-indexed) or by their visitor's name, email, phone or user ID (trigram GIN index), and leads by the same
 * fields; always within one app. Queries shorter than MIN_FUZZY characters look up email, phone and user ID by
 * prefix only (the B-tree indexes): a trigram of one or two letters matches everything.
 */
export async function searchInbox(ctx: Ctx, input: SearchInput): Promise<SearchFound> {
  assertApp(ctx, input.appId);
  const q = input.q.trim();
  if (q === "") throw invalid({ q: "must contain something to search for" });
  let before: bigint | undefined;
  if (input.cursor !== undefined) {
    before = parseId(input.cursor);
    if (before === undefined) throw invalid({ cursor: "must be the next_cursor of a previous page" });
  }
  const wantConversations = input.kind !== "leads";
  const firstPage = before === undefined;
  // One look-up of the matching users serves both the leads and the visitors' conversations.
  const users = async (): Promise<[ConversationFound[], LeadFound[]]> => {
    if (!firstPage) return [[], []];
    const found = await findUsers(ctx, input.appId, q);
    const leads = input.kind !== "conversations" ? leadsOf(found.slice(0, input.limit), q) : [];
    return [wantConversations ? await findVisitorConversations(ctx, input, q, found) : [], leads];
  };
  const [messages, [conversations, leads]] = await Promise.all([
    wantConversations && q.length >= MIN_FUZZY ? findMessages(ctx, input, q, before) : [],
    users(),
  ]);
  const more = messages.length > input.limit;
  const page = more ? messages.slice(0, input.limit) : messages;
  return {
    messages: page,
    conversations,
    leads,
    next: more ? String(page[page.length - 1]!.partId) : null,
  };
}

interface ConversationRow {
  conversation_id: bigint;
  closed: boolean;
  assignee_id: bigint | null;
  last_update: Date;
  uid: bigint;
  name: string | null;
  email: string | null;
  phone: string | null;
  user_id: string | null;
}

function conversationSide(r: ConversationRow): ConversationSide {
  return {
    conversationId: r.conversation_id,
    closed: r.closed,
    assigneeId: r.assignee_id,
    lastUpdate: r.last_update,
    visitor: { id: r.uid, name: r.name, email: r.email, phone: r.phone, userId: r.user_id },
  };
}

async function findMessages(
  ctx: Ctx,
  input: SearchInput,
  q: string,
  before: bigint | undefined,
): Promise<MessageFound[]> {
  const tsq = tsQueryText(q);
  if (tsq === undefined) return [];
  type Row = ConversationRow & { part_id: bigint; part_type: string; created: Date; headline: string };
  const sql = sqlOf(ctx.db);
  const rows = await sql.$queryRaw<Row[]>(messagesStatement(input, tsq, before, "recent"));
  const missing = input.limit + 1 - rows.length;
  if (missing > 0)
    rows.push(...(await sql.$queryRaw<Row[]>(messagesStatement(input, tsq, before, "older", missing))));
  return rows.map((r) => ({
    ...conversationSide(r),
    partId: r.part_id,
    partType: r.part_type,
    created: r.created,
    highlight: splitMarked(r.headline),
  }));
}

interface UserRow {
  uid: bigint;
  name: string | null;
  email: string | null;
  phone: string | null;
  user_id: string | null;
  is_lead: boolean;
  last_seen: Date | null;
}

/** The newest USERS_CAP users matching `q`, newest first (statements.ts: usersStatement). */
async function findUsers(ctx: Ctx, appId: bigint, q: string): Promise<UserRow[]> {
  const sql = sqlOf(ctx.db);
  if (q.length < MIN_FUZZY) return sql.$queryRaw<UserRow[]>(usersStatement(appId, q, "all", 0n));
  const rows = await sql.transaction(async (tx) => {
    const bound = (await tx.$queryRaw<{ bound: bigint }[]>(usersBoundStatement()))[0]?.bound ?? 0n;
    await tx.$executeRaw(recentUsersSetting());
    return { bound, found: await tx.$queryRaw<UserRow[]>(usersStatement(appId, q, "recent", bound)) };
  });
  const { bound, found } = rows;
  if (found.length < USERS_CAP)
    found.push(
      ...(await sql.$queryRaw<UserRow[]>(usersStatement(appId, q, "older", bound, USERS_CAP - found.length))),
    );
  return found;
}

const visitorOf = (r: UserRow): Visitor => ({
  id: r.uid,
  name: r.name,
  email: r.email,
  phone: r.phone,
  userId: r.user_id,
});

async function findVisitorConversations(
  ctx: Ctx,
  input: SearchInput,
  q: string,
  users: UserRow[],
): Promise<ConversationFound[]> {
  if (!users.length) return [];
  const byId = new Map(users.map((u) => [u.uid, visitorOf(u)]));
  type Row = Pick<ConversationRow, "conversation_id" | "closed" | "assignee_id" | "last_update" | "uid">;
  const rows = await sqlOf(ctx.db).$queryRaw<Row[]>(
    visitorConversationsStatement(
      input,
      users.map((u) => u.uid),
    ),
  );
  return rows.flatMap((r) => {
    const visitor = byId.get(r.uid)!;
    const m = matchedField(visitor, q);
    return m
      ? [
          {
            conversationId: r.conversation_id,
            closed: r.closed,
            assigneeId: r.assignee_id,
            lastUpdate: r.last_update,
            visitor,
            field: m.field,
            highlight: markContains(m.value, q),
          },
        ]
      : [];
  });
}

function leadsOf(rows: UserRow[], q: string): LeadFound[] {
  return rows.flatMap((r) => {
    const v = visitorOf(r);
    const m = matchedField(v, q);
    return m
      ? [
          {
            ...v,
            isLead: r.is_lead,
            lastSeen: r.last_seen,
            field: m.field,
            highlight: markContains(m.value, q),
          },
        ]
      : [];
  });
}
