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

/**
 * Parts the first step looks at: the newest ones (by ID) below the page's start. The walk stops at the page's
 * last match, so a frequent word costs the same whatever the window, but a word none of them holds (a name, an
 * email: every query is also a message search) costs the whole window: ~6 ms for 30,000 parts at 1M users, ~20 ms
 * for 100,000. Too small a window fails the other way: 10,000 parts (an hour of a busy inbox; the bench's own reply
 * load) held no match for a frequent word, and the older step sorted every match of the table, 170–320 ms.
 */
export const RECENT_WINDOW = 30_000;

/**
 * Replies and notes whose words match, newest first, in two steps of one statement: the RECENT_WINDOW newest parts
 * (where a frequent word fills the page, found by walking them and testing their stored vectors), then the older
 * ones through the GIN index alone: bound and ordered by `id + 0`, so that the planner cannot walk the table by ID
 * instead (its estimate for a prefix, `word:*`, is blind, and a word found nowhere would read every part). The
 * steps are the branches of a UNION ALL under the page's LIMIT, which stops pulling rows once the page is full: the
 * older step runs only when the recent one left the page short (EXPLAIN shows it "never executed"), in the same
 * round trip. The page's IDs are found first and the excerpts made for them alone (ts_headline re-parses a body).
 */
export function messagesStatement(input: SearchInput, tsq: string, before: bigint | undefined): Prisma.Sql {
  const query = Prisma.sql`to_tsquery('simple', ${tsq})`;
  const top =
    before === undefined
      ? Prisma.sql`(SELECT max(id) + 1 FROM conversation_parts)`
      : Prisma.sql`${before}::bigint`;
  const filters = conversationFilters(input);
  const needsConversation =
    (input.state !== undefined && input.state !== "all") || input.assignee !== undefined;
  const limit = input.limit + 1;
  const step = (range: Prisma.Sql, order: Prisma.Sql) => Prisma.sql`(
      SELECT p.id, p.conversation_id, p.type, p.created, p.body
      FROM conversation_parts p
      WHERE p.body_search @@ ${query} AND p.app_id = ${input.appId} AND ${range}
        AND p.type IN (${Prisma.join([...MESSAGE_TYPES])})
        AND ${dateRange(Prisma.sql`p.created`, input)}
        AND ${needsConversation ? Prisma.sql`EXISTS (SELECT 1 FROM conversations c WHERE c.id = p.conversation_id AND ${filters})` : Prisma.sql`TRUE`}
      ORDER BY ${order} DESC
      LIMIT ${limit})`;
  return planEachTime(Prisma.sql`
    SELECT k.id AS part_id, k.type AS part_type, k.created,
      ts_headline('simple', k.body, ${query}, ${HEADLINE}) AS headline,
      c.id AS conversation_id, c.closed, c.assignee_id, c.last_update,
      u.id AS uid, u.name, u.email, u.phone, u.user_id
    FROM (
      SELECT * FROM (
        ${step(Prisma.sql`p.id < ${top} AND p.id >= ${top} - ${RECENT_WINDOW}`, Prisma.sql`p.id`)}
        UNION ALL
        ${step(Prisma.sql`p.id + 0 < ${top} - ${RECENT_WINDOW}`, Prisma.sql`p.id + 0`)}
      ) steps LIMIT ${limit}
    ) k
    JOIN conversations c ON c.id = k.conversation_id
    JOIN users u ON u.id = c.user_id
    ORDER BY k.id DESC`);
}

/** Users looked at per search, the newest matching ones: leads are the first `limit` (at most 50) of them. */
export const USERS_CAP = 50;
/** Users the first step of a fuzzy user search looks at: the newest ones (by ID). */
export const RECENT_USERS = 20_000;

/**
 * Users of the app whose name, email, phone or user ID holds `q` (trigram index), or, for a short `q`, whose
 * email, phone or user ID starts with it (B-tree ranges).
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
 * The newest matching users (at most USERS_CAP), newest first, with, when `conversations` is given, the newest
 * of their conversations that pass its filters: one statement, one round trip (under the reply load each
 * sequential statement waited its turn on the event loop and the pool: the search latency bench case).
 *
 * A fuzzy `q` runs in two steps like messages, the branches of a UNION ALL under the LIMIT (the older one runs only
 * when the recent one leaves the page short). "recent": the RECENT_USERS newest users, walked backwards by ID and
 * each tested: at most 20,000 rows, and a common fragment (a first name held by thousands) stops early. "older":
 * the trigram index alone, ordered by `id + 0` so that the planner cannot walk every user backwards for a fragment
 * nobody holds. `bound` (where the steps meet) is the newest ID minus RECENT_USERS unless given (tests): any bound
 * gives the same users, it only moves work between the steps. A short `q` (prefixes on B-trees) is one step.
 *
 * Rows: one per (user, conversation), a user without one once with null conversation columns.
 */
export function usersStatement(
  appId: bigint,
  q: string,
  conversations?: SearchInput,
  bound?: bigint,
): Prisma.Sql {
  const cols = Prisma.sql`u.id AS uid, u.name, u.email, u.phone, u.user_id, u.is_lead, u.last_seen`;
  const match = userMatch(appId, q);
  const at = bound ?? Prisma.sql`(SELECT coalesce(max(id), 0) - ${RECENT_USERS} FROM users)`;
  const found =
    q.length >= MIN_FUZZY
      ? Prisma.sql`SELECT * FROM (
          (SELECT ${cols} FROM users u WHERE ${match} AND u.id >= ${at} ORDER BY u.id DESC LIMIT ${USERS_CAP})
          UNION ALL
          (SELECT ${cols} FROM users u WHERE ${match} AND u.id + 0 < ${at} ORDER BY u.id + 0 DESC LIMIT ${USERS_CAP})
        ) steps LIMIT ${USERS_CAP}`
      : Prisma.sql`SELECT ${cols} FROM users u WHERE ${match} ORDER BY u.id DESC LIMIT ${USERS_CAP}`;
  if (!conversations) return planEachTime(found);
  return planEachTime(Prisma.sql`
    SELECT f.*, c.id AS conversation_id, c.closed, c.assignee_id, c.last_update
    FROM (${found}) f LEFT JOIN LATERAL (
      SELECT c.id, c.closed, c.assignee_id, c.last_update FROM conversations c
      WHERE c.user_id = f.uid AND c.app_id = ${appId}
        AND ${conversationFilters(conversations)} AND ${dateRange(Prisma.sql`c.last_update`, conversations)}
      ORDER BY c.last_update DESC, c.id DESC
      LIMIT ${conversations.limit}
    ) c ON TRUE`);
}
