import type { Queryable } from "../db/sql";
import type { Runtime } from "../server/runtime";
import { newReplyToken } from "./tokens";

export interface Thread {
  id: bigint;
  token: string;
  lastPartId: bigint;
}

/** "user" (the visitor) or "admin:<id>" (an operator): who a thread's emails go to and whose answers it takes. */
export type Recipient = "user" | `admin:${bigint}`;

/** The recipient's thread of a conversation, made with its reply token on first use, locked until commit. */
export async function threadOf(
  tx: Queryable,
  conv: { appId: bigint; conversationId: bigint },
  recipient: Recipient,
): Promise<Thread> {
  await tx.$executeRaw`
    INSERT INTO email_threads (app_id, conversation_id, recipient, token)
    VALUES (${conv.appId}, ${conv.conversationId}, ${recipient}, ${newReplyToken()})
    ON CONFLICT (conversation_id, recipient) DO NOTHING`;
  const [row] = await tx.$queryRaw<{ id: bigint; token: string; last_part_id: bigint }[]>`
    SELECT id, token, last_part_id FROM email_threads
    WHERE conversation_id = ${conv.conversationId} AND recipient = ${recipient} FOR UPDATE`;
  return { id: row!.id, token: row!.token, lastPartId: BigInt(row!.last_part_id) };
}

/** Links in emails: PUBLIC_URL, else the address this server listens on. */
export const emailBase = (rt: Runtime) => (rt.config.publicUrl || rt.baseUrl || "").replace(/\/+$/, "");
