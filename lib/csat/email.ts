import type { JobKind } from "../jobs/runner";
import type { Runtime } from "../server/runtime";
import { CSAT_EMAIL_QUEUE } from "../conversations/csat-request";
import { emailVisitor, type VisitorEmail } from "../email/visitor-emails";
import { PRESENCE_TTL_MS } from "../user-model/presence-state";
import { ratingToken } from "./tokens";

export const STARS = ["", "Very bad", "Bad", "OK", "Good", "Excellent"] as const;

/**
 * The rating request by email, queued at the close that asked (lib/conversations/csat-request.ts) and run once the
 * app's continuity delay has passed: sent only if the conversation is still unrated and its visitor is not in the
 * messenger now (there the card asks them). Five links, one per score, each signed for that score alone.
 */
export function sendRatingRequest(rt: Runtime, conversationId: bigint): Promise<boolean> {
  return emailVisitor(
    rt,
    conversationId,
    () => true,
    async (tx, c): Promise<VisitorEmail | undefined> => {
      const [row] = await tx.$queryRaw<{ rating: number | null; online: boolean }[]>`
        UPDATE conversation_ratings r SET emailed_at = now()
        FROM users u
        WHERE r.conversation_id = ${conversationId} AND u.id = r.user_id AND r.emailed_at IS NULL
        RETURNING r.rating,
          (u.presence <> 'offline' AND u.last_heartbeat > now() - make_interval(secs => ${PRESENCE_TTL_MS / 1000}))
            AS online`;
      if (!row || row.rating !== null || row.online) return undefined;
      const sender = c.settings.senderName;
      const links = await Promise.all(
        [5, 4, 3, 2, 1].map(async (r) => `${c.base}/rate?t=${await ratingToken(rt.db, conversationId, r)}`),
      );
      return {
        kind: "rating_request",
        fromName: sender,
        partIds: [],
        content: {
          intro: `How was your conversation with ${sender}? One click on a score rates it.`,
          blocks: [],
          choices: [5, 4, 3, 2, 1].map((r, i) => ({
            label: `${"★".repeat(r)}${"☆".repeat(5 - r)} ${STARS[r]}`,
            url: links[i]!,
          })),
          footer: [
            "Your rating goes to the team that answered you; you can add a comment on the page it opens.",
            `You get this email because you wrote to ${sender} and left this address.`,
          ],
        },
      };
    },
  );
}

export const csatEmailJob: JobKind = {
  name: CSAT_EMAIL_QUEUE,
  concurrency: 2,
  background: true,
  run: async (rt, job) => {
    await sendRatingRequest(rt, BigInt((job.payload as { conversation: string }).conversation));
  },
};
