import { Prisma } from "../db/generated/client";
import { planEachTime } from "../db/sql";
import { MESSAGE_TYPES } from "../parts/state";
import { containsPattern, MARK_START, MARK_STOP, MIN_FUZZY, prefixUpper } from "./query";
import type { SearchKind, SearchState } from "./schemas";

/** The statements of searchInbox (search.ts), apart so that the benchmark can EXPLAIN them. */

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

/** Visitors whose conversations are looked at for one page: the newest matching ones. */
const VISITORS_CAP = 50;
const HEADLINE = `StartSel=${MARK_START}, StopSel=${MARK_STOP}, MaxWords=24, MinWords=10, MaxFragments=2`;

export function conversationFilters(input: SearchInput): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (input.state === "open") parts.push(Prisma.sql`NOT c.closed`);
  if (input.state === "closed") parts.push(Prisma.sql`c.closed`);
  if (input.assignee === 0n) parts.push(Prisma.sql`c.assignee_id IS NULL`);
  else if (input.assignee !== undefined) parts.push(Prisma.sql`c.assignee_id = ${input.assignee}`);
  return parts.length ? Prisma.join(parts, " AND ") : Prisma.sql`TRUE`;
}

export function dateRange(column: Prisma.Sql, input: SearchInput): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (input.from) parts.push(Prisma.sql`${column} >= ${input.from}::timestamptz`);
  if (input.to) parts.push(Prisma.sql`${column} < ${input.to}::timestamptz`);
  return parts.length ? Prisma.join(parts, " AND ") : Prisma.sql`TRUE`;
}

/** Parts the first step looks at: the newest ones (by ID) below the page's start. */
export const RECENT_WINDOW = 10_000;

/**
 * Replies and notes whose words match, newest first, in two steps: the RECENT_WINDOW newest parts (where a frequent
 * word fills the page, found by walking them and testing their stored vectors), then, if the page is not full, the
 * older ones through the GIN index alone: bound and ordered by `id + 0`, so that the planner cannot walk the table
 * by ID instead (its estimate for a prefix, `word:*`, is blind, and a word found nowhere would read every part).
 * The page's IDs are found first and the excerpts made for them alone (ts_headline re-parses a body).
 */
export function messagesStatement(
  input: SearchInput,
  tsq: string,
  before: bigint | undefined,
  step: "recent" | "older",
  limit = input.limit + 1,
): Prisma.Sql {
  const query = Prisma.sql`to_tsquery('simple', ${tsq})`;
  const top =
    before === undefined
      ? Prisma.sql`(SELECT max(id) + 1 FROM conversation_parts)`
      : Prisma.sql`${before}::bigint`;
  const range =
    step === "recent"
      ? Prisma.sql`p.id < ${top} AND p.id >= ${top} - ${RECENT_WINDOW}`
      : Prisma.sql`p.id + 0 < ${top} - ${RECENT_WINDOW}`;
  const filters = conversationFilters(input);
  const needsConversation =
    (input.state !== undefined && input.state !== "all") || input.assignee !== undefined;
  return planEachTime(Prisma.sql`
    SELECT k.id AS part_id, k.type AS part_type, k.created,
      ts_headline('simple', k.body, ${query}, ${HEADLINE}) AS headline,
      c.id AS conversation_id, c.closed, c.assignee_id, c.last_update,
      u.id AS uid, u.name, u.email, u.phone, u.user_id
    FROM (
      SELECT p.id, p.conversation_id, p.type, p.created, p.body
      FROM conversation_parts p
      WHERE p.body_search @@ ${query} AND p.app_id = ${input.appId} AND ${range}
        AND p.type IN (${Prisma.join([...MESSAGE_TYPES])})
        AND ${dateRange(Prisma.sql`p.created`, input)}
        AND ${needsConversation ? Prisma.sql`EXISTS (SELECT 1 FROM conversations c WHERE c.id = p.conversation_id AND ${filters})` : Prisma.sql`TRUE`}
      ORDER BY ${step === "recent" ? Prisma.sql`p.id` : Prisma.sql`p.id + 0`} DESC
      LIMIT ${limit}
    ) k
    JOIN conversations c ON c.id = k.conversation_id
    JOIN users u ON u.id = c.user_id
    ORDER BY k.id DESC`);
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

/**
 * Newest users first. Through the trigram index always (`id + 0`: no walking the users backwards instead): the
 * planner cannot tell how many users hold a fragment, and one held by none would test every user of the app.
 */
export const userOrder = (q: string) => (q.length >= MIN_FUZZY ? Prisma.sql`u.id + 0` : Prisma.sql`u.id`);

/** The newest conversations (filtered) of the newest VISITORS_CAP matching visitors. */
export function visitorConversationsStatement(input: SearchInput, q: string): Prisma.Sql {
  return planEachTime(Prisma.sql`
    WITH m AS (
      SELECT u.id, u.name, u.email, u.phone, u.user_id FROM users u
      WHERE ${userMatch(input.appId, q)}
      ORDER BY ${userOrder(q)} DESC LIMIT ${VISITORS_CAP}
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
    LIMIT ${input.limit}`);
}
