import { Prisma } from "../db/generated/client";
import { planEachTime, sqlOf } from "../db/sql";
import { assertApp, type Ctx } from "../auth/context";
import { invalid } from "../domain/errors";
import { parseId } from "../contract/zod";
import { markContains, matchedField, MIN_FUZZY, splitMarked, tsQueryText } from "./query";
import type { Highlight, UserField } from "./schemas";
import {
  messagesStatement,
  userMatch,
  userOrder,
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
  const [messages, conversations, leads] = await Promise.all([
    wantConversations && q.length >= MIN_FUZZY ? findMessages(ctx, input, q, before) : [],
    wantConversations && firstPage ? findVisitorConversations(ctx, input, q) : [],
    input.kind !== "conversations" && firstPage ? findLeads(ctx, input, q) : [],
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

async function findVisitorConversations(
  ctx: Ctx,
  input: SearchInput,
  q: string,
): Promise<ConversationFound[]> {
  const rows = await sqlOf(ctx.db).$queryRaw<ConversationRow[]>(visitorConversationsStatement(input, q));
  return rows.flatMap((r) => {
    const side = conversationSide(r);
    const m = matchedField(side.visitor, q);
    return m ? [{ ...side, field: m.field, highlight: markContains(m.value, q) }] : [];
  });
}

async function findLeads(ctx: Ctx, input: SearchInput, q: string): Promise<LeadFound[]> {
  type Row = Omit<ConversationRow, "conversation_id" | "closed" | "assignee_id" | "last_update"> & {
    is_lead: boolean;
    last_seen: Date | null;
  };
  const rows = await sqlOf(ctx.db).$queryRaw<Row[]>(
    planEachTime(Prisma.sql`
    SELECT u.id AS uid, u.name, u.email, u.phone, u.user_id, u.is_lead, u.last_seen FROM users u
    WHERE ${userMatch(input.appId, q)}
    ORDER BY ${userOrder(q)} DESC LIMIT ${input.limit}`),
  );
  return rows.flatMap((r) => {
    const v = { id: r.uid, name: r.name, email: r.email, phone: r.phone, userId: r.user_id };
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
