import type { Queryable } from "../db/sql";
import type { JobKind } from "../jobs/runner";
import type { Runtime } from "../server/runtime";
import type { EmailBlock } from "./render";
import { emailVisitor, type VisitorEmail } from "./visitor-emails";

import { CONTINUITY_QUEUE } from "../conversations/email-followups";

interface UnreadPart {
  id: bigint;
  body: string;
  author: string | null;
}

/**
 * Operators' replies the visitor has neither read nor been emailed, oldest first. A reply read in the messenger
 * is never emailed; one emailed is never emailed again (the thread's last part).
 */
function unreadReplies(tx: Queryable, conversationId: bigint, after: bigint) {
  return tx.$queryRaw<UnreadPart[]>`
    SELECT p.id, p.body, a.name AS author FROM conversation_parts p LEFT JOIN admins a ON a.id = p.from_admin_id
    WHERE p.conversation_id = ${conversationId} AND p.direction = 'a2u' AND p.read = false
      AND p.type IN ('reply_admin', 'article') AND p.id > ${after}
    ORDER BY p.id`;
}

async function attachmentsOf(tx: Queryable, partIds: bigint[]) {
  return tx.$queryRaw<{ id: bigint; part_id: bigint; filename: string }[]>`
    SELECT id, part_id, filename FROM attachments WHERE part_id = ANY(${partIds}::bigint[]) ORDER BY id`;
}

/** The page the visitor wrote from, to open the conversation in the messenger again. */
async function conversationPage(tx: Queryable, conversationId: bigint): Promise<string | undefined> {
  const [row] = await tx.$queryRaw<{ referrer: string }[]>`
    SELECT referrer FROM conversation_parts
    WHERE conversation_id = ${conversationId} AND referrer ~ '^https?://' ORDER BY id DESC LIMIT 1`;
  if (!row) return undefined;
  const url = new URL(row.referrer);
  url.hash = `relay-conversation=${conversationId}`;
  return url.toString();
}

/**
 * Emails a visitor the replies they have not read, one email for all of them: queued (per conversation, see
 * lib/conversations/email-followups.ts) when an operator replies, run once the app's delay has passed.
 */
export function sendContinuity(rt: Runtime, conversationId: bigint): Promise<boolean> {
  return emailVisitor(
    rt,
    conversationId,
    (s) => s.continuity,
    async (tx, c, thread): Promise<VisitorEmail | undefined> => {
      const parts = await unreadReplies(tx, conversationId, thread.lastPartId);
      if (!parts.length) return undefined;
      const files = await attachmentsOf(
        tx,
        parts.map((p) => p.id),
      );
      const sender = c.settings.senderName;
      const blocks: EmailBlock[] = parts.map((p) => ({
        author: p.author ?? sender,
        text: p.body,
        attachments: files
          .filter((f) => f.part_id === p.id)
          .map((f) => ({ name: f.filename, url: c.urls(f.id) })),
      }));
      const operator = parts.at(-1)!.author;
      const page = await conversationPage(tx, conversationId);
      return {
        kind: "continuity",
        fromName: operator ? `${operator} (${sender})` : sender,
        partIds: parts.map((p) => p.id),
        content: {
          intro:
            parts.length === 1
              ? `${operator ?? sender} replied to your conversation with ${sender}.`
              : `You have ${parts.length} new replies in your conversation with ${sender}.`,
          blocks,
          action: page ? { label: "Open the conversation", url: page } : undefined,
          footer: [
            "Reply to this email to answer: your answer goes to the same conversation.",
            `You get this email because you wrote to ${sender} and left this address.`,
          ],
        },
      };
    },
  );
}

export const continuityJob: JobKind = {
  name: CONTINUITY_QUEUE,
  // Two at a time, as the sends: more at once sent faster but took more CPU from the replies; and while requests
  // are being answered, one at a time and resting (bench group `email` measures both).
  concurrency: 2,
  background: true,
  run: async (rt, job) => {
    const { conversation } = job.payload as { conversation: string };
    await sendContinuity(rt, BigInt(conversation));
  },
};
