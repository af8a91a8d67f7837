import type { Random } from "./random";
import { applyPart, EMPTY_STATE, type PartType } from "../parts/state";
import { CHANNELS, CONVERSATION_TAGS, ADMINS, ADMIN_NOTES, TOPICS, type Topic } from "./fixtures";
import { DAY, HOUR, MINUTE, type UserPlan } from "./people";

export interface PartPlan {
  type: PartType;
  created: Date;
  body: string;
  /** Index into ADMINS: the author of every part but the visitor's. */
  admin: number | null;
  assignee: number | null;
  /** Read by its recipient: visitors' parts by an operator, replies by the visitor. */
  read: boolean;
  delayedUntil?: Date;
  /** On tag parts: the conversation's tags afterwards. */
  tags?: string[];
}

export interface ConversationPlan {
  user: number;
  /** Index into CHANNELS. */
  channel: number;
  /** An operator opened it after the visitor's last message without answering (yet). */
  seenByAdmin: boolean;
  parts: PartPlan[];
}

/** A part whose time is still a gap after the previous one. */
type DraftPart = Omit<PartPlan, "created"> & { gap: number };

/**
 * Conversations that read like real ones: a visitor asks, an operator triages (assigns, tags), answers or not yet,
 * now and then writes an internal note, closes or snoozes. Mutates `users`: last reply, last contact,
 * conversation count, last seen.
 */
export function planConversations(
  rnd: Random,
  now: Date,
  users: UserPlan[],
  count: number,
): ConversationPlan[] {
  const known = users.flatMap((u, i) => (u.name || u.email ? [i] : []));
  const anonymous = users.flatMap((u, i) => (u.name || u.email || u.webpush ? [] : [i]));
  const plans: ConversationPlan[] = [];
  for (let c = 0; c < count; c++) {
    const pool = anonymous.length > 0 && (rnd.chance(0.12) || known.length === 0) ? anonymous : known;
    const userIndex = rnd.pick(pool);
    const user = users[userIndex];
    if (!user) throw new Error("no users to start conversations with");
    const topic = rnd.pick(TOPICS);
    const { drafts, seenByAdmin } = script(rnd, now, topic);
    const parts = placeInTime(rnd, now, user, drafts);
    plans.push({ user: userIndex, channel: CHANNELS.indexOf(topic.channel), seenByAdmin, parts });
    user.conversationCount++;
    for (const p of parts) {
      if (p.type === "reply_user") user.lastReply = later(user.lastReply, p.created);
      if (p.type === "reply_admin") user.lastContacted = later(user.lastContacted, p.created);
    }
    if (user.lastReply && user.lastReply > user.lastSeen) user.lastSeen = user.lastReply;
  }
  return plans;
}

const later = (a: Date | null, b: Date) => (a && a > b ? a : b);

function script(rnd: Random, now: Date, topic: Topic): { drafts: DraftPart[]; seenByAdmin: boolean } {
  const userLines = rnd.int(1, topic.user.length);
  const answered = rnd.chance(0.6);
  const adminLines = answered ? userLines : userLines - 1;
  const assignee = rnd.chance(0.5) ? rnd.int(0, ADMINS.length - 1) : null;
  const replier = assignee ?? rnd.int(0, ADMINS.length - 1);
  const parts: DraftPart[] = [];
  const add = (type: PartType, gap: number, admin: number | null, more: Partial<DraftPart> = {}) =>
    parts.push({ type, gap, admin, body: "", assignee: null, read: true, ...more });
  const triage = () => rnd.int(10, 300) * 1000;

  add("reply_user", 0, null, { body: topic.user[0] ?? "" });
  if (assignee !== null) add("assigned", triage(), rnd.int(0, ADMINS.length - 1), { assignee });
  const tags: string[] = [];
  for (const tag of [...topic.tags, ...(rnd.chance(0.2) ? [rnd.pick(CONVERSATION_TAGS)] : [])]) {
    tags.push(tag);
    add("tag_added", triage(), replier, { tags: [...tags] });
  }
  for (let i = 0; i < adminLines; i++) {
    add("reply_admin", Math.floor(rnd.skewed(MINUTE, 3 * HOUR)), replier, { body: topic.admin[i] ?? "" });
    if (rnd.chance(0.15)) add("note", triage(), replier, { body: rnd.pick(ADMIN_NOTES) });
    const next = topic.user[i + 1];
    if (i + 1 < userLines && next)
      add("reply_user", Math.floor(rnd.skewed(2 * MINUTE, DAY)), null, { body: next });
  }

  const closed = rnd.chance(answered ? 0.55 : 0.1);
  // Closing without an answer means an operator looked at it.
  const seenByAdmin = !answered && (closed || rnd.chance(0.4));
  if (!seenByAdmin) {
    for (let i = parts.length - 1; i >= 0 && parts[i]?.type !== "reply_admin"; i--) {
      if (parts[i]?.type === "reply_user") (parts[i] as DraftPart).read = false;
    }
  }
  const lastReply = parts.findLast((p) => p.type === "reply_admin");
  for (const p of parts) if (p.type === "reply_admin") p.read = p !== lastReply || closed || rnd.chance(0.7);

  if (closed) add("closed", rnd.int(1, 30) * MINUTE, replier);
  else if (rnd.chance(0.2)) {
    add("delayed", rnd.int(1, 10) * MINUTE, replier, {
      delayedUntil: new Date(now.getTime() + rnd.int(2, 72) * HOUR),
    });
  }
  return { drafts: parts, seenByAdmin };
}

/** Places the parts around the user's last visit, never in the future and never before the user existed. */
function placeInTime(rnd: Random, now: Date, user: UserPlan, drafts: DraftPart[]): PartPlan[] {
  const span = drafts.reduce((sum, p) => sum + p.gap, 0);
  const latestStart = now.getTime() - MINUTE - span;
  let t = Math.min(user.lastSeen.getTime() - Math.floor(rnd.skewed(0, 2 * DAY)), latestStart);
  if (t < user.created.getTime()) user.created = new Date(t - rnd.int(1, 60) * MINUTE);
  return drafts.map(({ gap, ...p }) => {
    t += gap;
    return { ...p, created: new Date(t) };
  });
}

export interface StoredPart extends PartPlan {
  id: bigint;
  fromAdminId: bigint | null;
  assigneeId: bigint | null;
}

/**
 * The conversation's fields from its parts (oldest first) by the same rules the part writer applies, so the demo
 * holds exactly what the API would have produced; then the operator's reading, which writes no part.
 */
export function conversationState(parts: readonly StoredPart[], seenByAdmin: boolean) {
  const last = parts[parts.length - 1];
  if (!last) throw new Error("a conversation has at least one part");
  const state = parts.reduce((s, p) => applyPart(s, p), EMPTY_STATE);
  return {
    ...state,
    ...(seenByAdmin ? { unreadPartsCount: 0, read: true } : {}),
    lastUpdate: last.created,
  };
}
