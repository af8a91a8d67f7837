import { Prisma } from "../db/generated/client";
import { planEachTime, sqlOf } from "../db/sql";
import { assertApp, type Ctx } from "../auth/context";
import { invalid } from "../domain/errors";
import { parseId } from "../contract/zod";
import { MESSAGE_TYPES } from "../parts/state";
import {
  containsPattern,
  markContains,
  matchedField,
  MARK_START,
  MARK_STOP,
  MIN_FUZZY,
  prefixUpper,
  splitMarked,
  tsQueryText,
} from "./query";
import type { Highlight, SearchKind, SearchState, UserField } from "./schemas";

export interface SearchInput {
  appId: bigint;
  q: string;
  kind: SearchKind;
  state?: SearchState;
  /** An admin's ID, or 0n for unassigned conversations. */
  assignee?: bigint;
  /** Messages by their own time, conversations by their last update: [from, to). */
  from?: Date;
  to?: Date;
  limit: number;
  /** `next_cursor` of the previous page (messages only). */
  cursor?: string;
}

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

/** Visitors whose conversations are looked at for one page: the newest matching ones. */
const VISITORS_CAP = 50;
const HEADLINE = `StartSel=${MARK_START}, StopSel=${MARK_STOP}, MaxWords=24, MinWords=10, MaxFragments=2`;

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

function conversationFilters(input: SearchInput): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (input.state === "open") parts.push(Prisma.sql`NOT c.closed`);
  if (input.state === "closed") parts.push(Prisma.sql`c.closed`);
  if (input.assignee === 0n) parts.push(Prisma.sql`c.assignee_id IS NULL`);
  else if (input.assignee !== undefined) parts.push(Prisma.sql`c.assignee_id = ${input.assignee}`);
  return parts.length ? Prisma.join(parts, " AND ") : Prisma.sql`TRUE`;
}

function dateRange(column: Prisma.Sql, input: SearchInput): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (input.from) parts.push(Prisma.sql`${column} >= ${input.from}::timestamptz`);
  if (input.to) parts.push(Prisma.sql`${column} < ${input.to}::timestamptz`);
  return parts.length ? Prisma.join(parts, " AND ") : Prisma.sql`TRUE`;
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

/**
 * Replies and notes whose words match, newest first. The page's IDs are found first and the excerpts made for
 * them alone (ts_headline re-parses a body). Planned with the words each time: a rare word is best found through
 * the GIN index, a frequent one by walking the newest parts and testing their stored vectors.
 */
export function messagesStatement(input: SearchInput, tsq: string, before: bigint | undefined): Prisma.Sql {
  const query = Prisma.sql`to_tsquery('simple', ${tsq})`;
  return planEachTime(Prisma.sql`
    SELECT k.id AS part_id, k.type AS part_type, k.created,
      ts_headline('simple', k.body, ${query}, ${HEADLINE}) AS headline,
      c.id AS conversation_id, c.closed, c.assignee_id, c.last_update,
      u.id AS uid, u.name, u.email, u.phone, u.user_id
    FROM (
      SELECT p.id, p.conversation_id, p.type, p.created, p.body
      FROM conversation_parts p JOIN conversations c ON c.id = p.conversation_id
      WHERE p.body_search @@ ${query} AND p.app_id = ${input.appId}
        AND p.type IN (${Prisma.join([...MESSAGE_TYPES])})
        AND ${before === undefined ? Prisma.sql`TRUE` : Prisma.sql`p.id < ${before}`}
        AND ${dateRange(Prisma.sql`p.created`, input)} AND ${conversationFilters(input)}
      ORDER BY p.id DESC
      LIMIT ${input.limit + 1}
    ) k
    JOIN conversations c ON c.id = k.conversation_id
    JOIN users u ON u.id = c.user_id
    ORDER BY k.id DESC`);
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

/**
 * Users of the app whose name, email, phone or user ID holds `q` (trigram index), or, for a short `q`, whose
 * email, phone or user ID starts with it (B-tree ranges). Newest users first.
 */
export function userMatch(appId: bigint, q: string): Prisma.Sql {
  if (q.length >= MIN_FUZZY) {
    const pat = containsPattern(q);
    return Prisma.sql`u.app_id = ${appId} AND (u.name ILIKE ${pat} OR u.email ILIKE ${pat}
      OR u.phone ILIKE ${pat} OR u.user_id ILIKE ${pat})`;
  }
  const lower = q.toLowerCase();
  return Prisma.sql`u.app_id = ${appId} AND (
    (u.email >= ${lower} AND u.email < ${prefixUpper(lower)})
    OR (u.phone >= ${q} AND u.phone < ${prefixUpper(q)})
    OR (u.user_id >= ${q} AND u.user_id < ${prefixUpper(q)}))`;
}

async function findVisitorConversations(
  ctx: Ctx,
  input: SearchInput,
  q: string,
): Promise<ConversationFound[]> {
  const rows = await sqlOf(ctx.db).$queryRaw<ConversationRow[]>(
    planEachTime(Prisma.sql`
    WITH m AS (
      SELECT u.id, u.name, u.email, u.phone, u.user_id FROM users u
      WHERE ${userMatch(input.appId, q)}
      ORDER BY u.id DESC LIMIT ${VISITORS_CAP}
    )
    SELECT c.id AS conversation_id, c.closed, c.assignee_id, c.last_update,
      m.id AS uid, m.name, m.email, m.phone, m.user_id
    FROM m CROSS JOIN LATERAL (
      SELECT c.id, c.closed, c.assignee_id, c.last_update FROM conversations c
      WHERE c.user_id = m.id AND c.app_id = ${input.appId}
        AND ${conversationFilters(input)} AND ${dateRange(Prisma.sql`c.last_update`, input)}
      ORDER BY c.last_update DESC, c.id DESC
      LIMIT ${input.limit}
    ) c
    ORDER BY c.last_update DESC, c.id DESC
    LIMIT ${input.limit}`),
  );
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
    ORDER BY u.id DESC LIMIT ${input.limit}`),
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
