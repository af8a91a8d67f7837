import { sqlOf, type Queryable } from "../db/sql";
import type { Runtime } from "../server/runtime";
import type { ParsedEmail } from "./inbound/parse";
import { replyTokenOf } from "./tokens";

/** Where a message goes: a conversation it answers (as its visitor, or as an operator), or a new one. */
export interface Target {
  appId: bigint;
  /** The visitor: the one who answers, or whose conversation an operator answers. */
  userId: bigint;
  /** Absent: a new conversation. */
  conversationId?: bigint;
  /** Set when an operator answers by mail. */
  adminId?: bigint;
  /** Why a message that named a conversation starts a new one. */
  note?: string;
}

interface Thread {
  app_id: bigint;
  conversation_id: bigint;
  user_id: bigint;
  /** "user" or "admin:<id>". */
  recipient: string;
}

async function byToken(db: Queryable, tokens: string[]): Promise<Thread | undefined> {
  if (!tokens.length) return undefined;
  const [t] = await db.$queryRaw<Thread[]>`
    SELECT t.app_id, t.conversation_id, c.user_id, t.recipient
    FROM email_threads t JOIN conversations c ON c.id = t.conversation_id WHERE t.token = ANY(${tokens}::text[])
    LIMIT 1`;
  return t;
}

/** A mail program that rewrote Reply-To still quotes our Message-IDs: the newest email of theirs names the thread. */
async function byReference(db: Queryable, ids: string[]): Promise<Thread | undefined> {
  if (!ids.length) return undefined;
  const [t] = await db.$queryRaw<Thread[]>`
    SELECT e.app_id, e.conversation_id, c.user_id,
      CASE WHEN e.admin_id IS NULL THEN 'user' ELSE 'admin:' || e.admin_id END AS recipient
    FROM emails e JOIN conversations c ON c.id = e.conversation_id
    WHERE e.message_id = ANY(${ids}::text[]) ORDER BY e.id DESC LIMIT 1`;
  return t;
}

/** Whether `from` is the thread's recipient: the operator's address, or the visitor's (now or as emailed). */
async function isRecipient(db: Queryable, t: Thread, from: string): Promise<bigint | undefined | false> {
  if (t.recipient.startsWith("admin:")) {
    const adminId = BigInt(t.recipient.slice(6));
    const [a] = await db.$queryRaw<{ email: string }[]>`SELECT email FROM admins WHERE id = ${adminId}`;
    return a?.email.toLowerCase() === from ? adminId : false;
  }
  const [hit] = await db.$queryRaw<{ one: number }[]>`
    SELECT 1 AS one FROM users WHERE id = ${t.user_id} AND lower(email) = ${from}
    UNION ALL
    SELECT 1 FROM emails WHERE conversation_id = ${t.conversation_id} AND user_id = ${t.user_id}
      AND lower(to_address) = ${from}
    LIMIT 1`;
  return hit ? undefined : false;
}

/** The app an address names: its own local part, or the default `app-<id>`. */
async function appOf(db: Queryable, recipients: string[], domain: string): Promise<bigint | undefined> {
  const locals = recipients
    .filter((r) => r.endsWith(`@${domain}`))
    .map((r) => r.slice(0, -domain.length - 1));
  if (!locals.length) return undefined;
  const defaults = locals.flatMap((l) => /^app-(\d{1,18})$/.exec(l)?.[1] ?? []).map((n) => BigInt(n));
  const [app] = await db.$queryRaw<{ id: bigint }[]>`
    SELECT app_id AS id FROM email_settings WHERE address_local = ANY(${locals}::text[])
    UNION ALL
    SELECT id FROM apps WHERE id = ANY(${defaults}::bigint[])
    LIMIT 1`;
  return app?.id;
}

/** The app's user with this address (the most recently seen), or a new one with it and the sender's name. */
async function userByEmail(db: Queryable, appId: bigint, from: { address: string; name: string }) {
  const [found] = await db.$queryRaw<{ id: bigint }[]>`
    SELECT id FROM users WHERE app_id = ${appId} AND lower(email) = ${from.address}
    ORDER BY last_seen DESC NULLS LAST, id DESC LIMIT 1`;
  if (found) return found.id;
  const [made] = await db.$queryRaw<{ id: bigint }[]>`
    INSERT INTO users (app_id, email, name) VALUES (${appId}, ${from.address}, ${from.name.slice(0, 255) || null})
    RETURNING id`;
  return made!.id;
}

/**
 * Where a person's message goes. By the reply token of a recipient, else by the Message-IDs it answers; from the
 * thread's own recipient it is appended, from anyone else it starts a conversation of its own (never a part in
 * someone else's thread). Else the app whose address it was sent to. Else it is refused.
 */
export async function findTarget(rt: Runtime, p: ParsedEmail): Promise<Target | { refused: string }> {
  const db = sqlOf(rt.db);
  const domain = rt.config.email.domain;
  const from = p.from!;
  const tokens = p.recipients.flatMap((r) => replyTokenOf(r, domain) ?? []);
  const thread = (await byToken(db, tokens)) ?? (await byReference(db, [...p.inReplyTo, ...p.references]));
  if (thread) {
    const who = await isRecipient(db, thread, from.address);
    if (who !== false)
      return {
        appId: thread.app_id,
        userId: thread.user_id,
        conversationId: thread.conversation_id,
        ...(who === undefined ? {} : { adminId: who }),
      };
    return {
      appId: thread.app_id,
      userId: await userByEmail(db, thread.app_id, from),
      note: "the sender is not the conversation's recipient: a new conversation",
    };
  }
  const appId = await appOf(db, p.recipients, domain);
  if (appId !== undefined) return { appId, userId: await userByEmail(db, appId, from) };
  return { refused: tokens.length ? "no conversation has this reply address" : "no app has this address" };
}
