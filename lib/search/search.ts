import { sqlOf } from "../db/sql";
import { assertApp, type Ctx } from "../auth/context";
import { invalid } from "../domain/errors";
import { parseId } from "../contract/zod";
import { markContains, matchedField, MIN_FUZZY, splitMarked, tsQueryText } from "./query";
import type { Highlight, UserField } from "./schemas";
import { messagesStatement, usersStatement, type SearchInput } from "./statements";

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
    const found = await findUsers(ctx, input, q, wantConversations);
    const leads = input.kind !== "conversations" ? leadsOf(found.users.slice(0, input.limit), q) : [];
    return [visitorConversations(found, input.limit, q), leads];
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
  const rows = await sqlOf(ctx.db).$queryRaw<Row[]>(messagesStatement(input, tsq, before));
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

interface UserConversationRow extends UserRow {
  conversation_id: bigint | null;
  closed: boolean | null;
  assignee_id: bigint | null;
  last_update: Date | null;
}

interface UsersFound {
  users: UserRow[];
  /** The found users' conversations, newest first, with the user's row. */
  conversations: (UserRow & Omit<ConversationRow, keyof Visitor | "uid">)[];
}

const newestFirst = (a: bigint, b: bigint) => (a < b ? 1 : a > b ? -1 : 0);

/** The newest USERS_CAP users matching `q`, newest first, and their conversations (statements.ts: usersStatement). */
async function findUsers(
  ctx: Ctx,
  input: SearchInput,
  q: string,
  withConversations: boolean,
): Promise<UsersFound> {
  const rows = await sqlOf(ctx.db).$queryRaw<UserConversationRow[]>(
    usersStatement(input.appId, q, withConversations ? input : undefined),
  );
  const users = new Map<bigint, UserRow>();
  const conversations: UsersFound["conversations"] = [];
  for (const r of rows) {
    if (!users.has(r.uid)) users.set(r.uid, r);
    if (r.conversation_id !== null && r.conversation_id !== undefined)
      conversations.push({
        ...r,
        conversation_id: r.conversation_id,
        closed: r.closed ?? false,
        last_update: r.last_update ?? new Date(0),
      });
  }
  conversations.sort(
    (a, b) =>
      b.last_update.getTime() - a.last_update.getTime() || newestFirst(a.conversation_id, b.conversation_id),
  );
  return { users: [...users.values()].sort((a, b) => newestFirst(a.uid, b.uid)), conversations };
}

const visitorOf = (r: UserRow): Visitor => ({
  id: r.uid,
  name: r.name,
  email: r.email,
  phone: r.phone,
  userId: r.user_id,
});

/** The newest `limit` conversations of the users found, by the field of their visitor that matched. */
function visitorConversations(found: UsersFound, limit: number, q: string): ConversationFound[] {
  return found.conversations.slice(0, limit).flatMap((r) => {
    const visitor = visitorOf(r);
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
