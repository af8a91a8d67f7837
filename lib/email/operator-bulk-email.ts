import type { Queryable } from "../db/sql";
import type { Runtime } from "../server/runtime";
import type { ResolvedEmailSettings } from "./settings";
import { queueEmail } from "./queue";
import { renderHtml, renderText } from "./render";
import { emailBase } from "./threads";

/** How many of a job's conversations the email links to; the Inbox's "mine" holds them all. */
const LISTED = 10;

/**
 * A bulk job's assignments to one operator, as one email (its notification's, queued when the job ended): how many,
 * and links to the first of them. The count is the notification's, exact across a resumed job; the links are the
 * job's conversations an assignment gave the operator since the job began and that are still theirs. It belongs to
 * no conversation's thread, so it has no reply address: an answer by mail could not say which conversation it is for.
 */
export async function emailBulkAssigned(
  rt: Runtime,
  db: Queryable,
  o: {
    op: { id: bigint; name: string; email: string };
    appId: bigint;
    accent: string | null;
    settings: ResolvedEmailSettings;
    jobId: bigint;
    count: number;
    by: string;
  },
): Promise<void> {
  const listed = await db.$queryRaw<{ id: bigint; visitor: string }[]>`
    SELECT c.id, COALESCE(u.name, u.email, 'A visitor') AS visitor
    FROM bulk_jobs j CROSS JOIN LATERAL unnest(j.conversation_ids) WITH ORDINALITY AS s(id, k)
      JOIN conversations c ON c.id = s.id JOIN users u ON u.id = c.user_id
    WHERE j.id = ${o.jobId} AND c.assignee_id = ${o.op.id}
      AND EXISTS (
        SELECT 1 FROM conversation_parts p
        WHERE p.conversation_id = c.id AND p.type = 'assigned' AND p.assignee_id = ${o.op.id}
          AND p.created >= j.created)
    ORDER BY s.k LIMIT ${LISTED}`;
  const base = emailBase(rt);
  const rest = o.count - listed.length;
  const conversations = `${o.count} conversation${o.count === 1 ? "" : "s"}`;
  const content = {
    accent: o.accent ?? "",
    intro: `${o.by} assigned you ${conversations}.`,
    blocks: [],
    choices: [
      ...listed.map((c) => ({ label: `Conversation with ${c.visitor}`, url: `${base}/inbox?c=${c.id}` })),
      {
        label: rest > 0 ? `And ${rest} more, with all your conversations` : "All your conversations",
        url: `${base}/inbox?assignee=mine`,
      },
    ],
    footer: [
      "Answer each visitor in the Inbox: a reply to this email would start a new conversation.",
      "You get this email because you were assigned.",
      "Which emails you get: Settings → Email in the panel.",
    ],
  };
  await queueEmail(db, rt.config.email, {
    appId: o.appId,
    conversationId: null,
    kind: "operator_assigned",
    adminId: o.op.id,
    to: { address: o.op.email, name: o.op.name },
    from: { address: o.settings.address, name: o.settings.senderName },
    replyTo: null,
    references: [],
    subject: `[${o.settings.senderName}] ${conversations} assigned to you`,
    text: renderText(content),
    html: renderHtml(content),
    partIds: [],
  });
}
