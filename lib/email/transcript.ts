import type { JobKind } from "../jobs/runner";
import type { Runtime } from "../server/runtime";
import { TRANSCRIPT_QUEUE } from "../conversations/email-followups";
import { emailVisitor, type VisitorEmail } from "./visitor-emails";

/** The most messages a transcript shows: the newest, so a long conversation still makes a readable email. */
const MAX_MESSAGES = 200;

/**
 * A closed conversation, emailed to its visitor: every message of both sides, notes never. Its Reply-To is the
 * visitor's thread of the conversation, so an answer reopens it.
 */
export function sendTranscript(rt: Runtime, conversationId: bigint): Promise<boolean> {
  return emailVisitor(
    rt,
    conversationId,
    (s) => s.transcripts,
    async (tx, c): Promise<VisitorEmail | undefined> => {
      const [conv] = await tx.$queryRaw<{ closed: boolean; name: string | null }[]>`
        SELECT c.closed, u.name FROM conversations c JOIN users u ON u.id = c.user_id WHERE c.id = ${conversationId}`;
      // Reopened since it was closed: the conversation goes on, no transcript.
      if (!conv?.closed) return undefined;
      const parts = await tx.$queryRaw<{ id: bigint; body: string; type: string; author: string | null }[]>`
        SELECT * FROM (
          SELECT p.id, p.body, p.type, a.name AS author FROM conversation_parts p
          LEFT JOIN admins a ON a.id = p.from_admin_id
          WHERE p.conversation_id = ${conversationId} AND p.type IN ('reply_user', 'reply_admin', 'article')
          ORDER BY p.id DESC LIMIT ${MAX_MESSAGES}
        ) t ORDER BY id`;
      if (!parts.length) return undefined;
      const sender = c.settings.senderName;
      const you = conv.name ? `${conv.name} (you)` : "You";
      return {
        kind: "transcript",
        fromName: sender,
        partIds: parts.map((p) => p.id),
        content: {
          intro: `Your conversation with ${sender} is closed. Here is what was said.`,
          blocks: parts.map((p) => ({
            author: p.type === "reply_user" ? you : (p.author ?? sender),
            text: p.body,
          })),
          footer: [
            "Reply to this email if there is anything more: it reopens the conversation.",
            `You get this email because you wrote to ${sender} and left this address.`,
          ],
        },
      };
    },
  );
}

export const transcriptJob: JobKind = {
  name: TRANSCRIPT_QUEUE,
  concurrency: 2,
  background: true,
  run: async (rt, job) => {
    await sendTranscript(rt, BigInt((job.payload as { conversation: string }).conversation));
  },
};
