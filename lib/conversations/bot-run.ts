import type { Ctx } from "../auth/context";
import type { Queryable } from "../db/sql";
import { jsonText } from "../db/json-column";
import type { Emit } from "../eventlog/append";
import type { AttachmentUrl } from "../attachments/sign";
import { appendParts, type PartDraft } from "../parts/append";
import type { CreatedPart } from "../parts/load";
import { BOT_VIA } from "../parts/state";
import { setUserPropsIn } from "../props/set-props";
import { eventOf } from "../contract/socket";
import { askInputOf, placeSteps, type BotToRun, type Step } from "../bots/steps";
import { answerOf, RETRY } from "../bots/answers";
import { publishChange } from "./events";
import { routeConversation } from "./routing";
import { queueOperatorEmail } from "./email-followups";
import type { ConversationRow } from "./rows";

/**
 * A bot running on a conversation, inside the transaction that holds the conversation's lock: it starts with the
 * visitor's first message (start.ts), each of the visitor's messages moves it on (reply.ts), and an operator's
 * message takes the conversation over. While it runs the conversation's `assistant_type` is the bot's kind and the
 * Inbox leaves it out; handing over clears it, routes the conversation and announces it as a new conversation.
 */
type Conv = ConversationRow & Parameters<typeof publishChange>[3];

interface Run {
  botId: bigint;
  senderId: bigint | null;
  steps: Step[];
  answers: Record<string, string>;
}

type End = "handed_over" | "closed" | "taken_over";

const jsonOf = jsonText;

/** A buttons step's quick replies; a click carries the step and the branch back in its meta_data. */
const buttonsOf = (s: Extract<Step, { type: "buttons" }> & { id: string }) =>
  s.buttons.map((b, i) => ({ type: "quick_reply", body: b.label, meta_data: { bot_step: s.id, branch: i } }));

class Turn {
  readonly drafts: PartDraft[] = [];
  /** The steps this turn reached, in order (the run's statistics). */
  readonly reached: string[] = [];
  tags: string[];
  assigned = false;
  constructor(
    readonly run: Run,
    readonly conv: Conv,
  ) {
    this.tags = conv.tags;
  }
  say(body: string, extra: Pick<PartDraft, "actions" | "metaData"> = {}) {
    this.drafts.push({
      type: "reply_admin",
      sentVia: BOT_VIA,
      fromAdminId: this.run.senderId,
      body,
      ...extra,
    });
  }
}

/**
 * Runs steps from `from` until one waits for the visitor (buttons, ask) or the run ends; what it says and does is
 * collected in the turn. Returns the step that waits, or how the run ended.
 */
async function walk(tx: Queryable, t: Turn, from: string | null): Promise<{ wait: string } | { end: End }> {
  const placed = placeSteps(t.run.steps);
  let at = from;
  while (at !== null) {
    const here = placed.get(at);
    if (!here) break;
    const s = here.step;
    t.reached.push(s.id);
    switch (s.type) {
      case "text":
        t.say(s.body);
        break;
      case "buttons":
        t.say(s.body, { actions: buttonsOf(s) });
        return { wait: s.id };
      case "ask":
        t.say(s.body, { metaData: { bot_ask: { step: s.id, input: askInputOf(s.prop) } } });
        return { wait: s.id };
      case "tag":
        if (s.target === "user")
          await tx.$executeRaw`
            INSERT INTO user_tags (user_id, app_id, tag) VALUES (${t.conv.userId}, ${t.conv.appId}, ${s.tag})
            ON CONFLICT (user_id, tag) DO NOTHING`;
        else if (!t.tags.includes(s.tag)) {
          t.tags = [...t.tags, s.tag];
          t.drafts.push({ type: "tag_added", sentVia: BOT_VIA, tags: t.tags, bodyJson: { tag: s.tag } });
        }
        break;
      case "assign":
        if (s.admin !== undefined) {
          const member = await tx.$queryRaw<{ admin_id: bigint }[]>`
            SELECT admin_id FROM app_admins WHERE app_id = ${t.conv.appId} AND admin_id = ${BigInt(s.admin)}`;
          // An operator removed since the bot was saved: routing decides at hand-over instead.
          if (member.length) {
            t.drafts.push({
              type: "assigned",
              sentVia: BOT_VIA,
              fromAdminId: null,
              assigneeId: BigInt(s.admin),
            });
            t.assigned = true;
          }
        } else if (s.channel !== undefined) {
          const n = await tx.$executeRaw`
            UPDATE conversations SET channel_id = ${BigInt(s.channel)} WHERE id = ${t.conv.id}
              AND EXISTS (SELECT 1 FROM channels WHERE id = ${BigInt(s.channel)} AND app_id = ${t.conv.appId})`;
          if (n) t.conv.channelId = BigInt(s.channel);
        }
        break;
      case "handover":
        if (s.body) t.say(s.body);
        return { end: "handed_over" };
      case "close":
        if (s.body) t.say(s.body);
        t.drafts.push({ type: "closed", sentVia: BOT_VIA, fromAdminId: null });
        return { end: "closed" };
    }
    at = here.next;
  }
  return { end: "handed_over" };
}

/**
 * The turn written: the run's new position or its end, then the parts in one group. An end clears
 * `assistant_type`; a hand-over routes the conversation (unless a step assigned it), leaves a note of what the
 * visitor answered, and announces the conversation to the Inbox as new.
 */
async function finish(
  tx: Queryable,
  emit: Emit,
  urls: AttachmentUrl,
  t: Turn,
  outcome: { wait: string } | { end: End },
): Promise<void> {
  let conv = t.conv;
  if ("wait" in outcome) {
    await tx.$executeRaw`
      UPDATE bot_runs SET at = ${outcome.wait}, answers = ${jsonOf(t.run.answers)}::jsonb,
        reached = reached || ${jsonOf(t.reached)}::jsonb
      WHERE conversation_id = ${conv.id}`;
  } else {
    await tx.$executeRaw`
      UPDATE bot_runs SET at = NULL, state = ${outcome.end}, answers = ${jsonOf(t.run.answers)}::jsonb,
        reached = reached || ${jsonOf(t.reached)}::jsonb, ended = now()
      WHERE conversation_id = ${conv.id}`;
    await tx.$executeRaw`UPDATE conversations SET assistant_type = NULL WHERE id = ${conv.id}`;
    conv = { ...conv, assistantType: null };
    if (outcome.end === "handed_over") {
      const answered = Object.entries(t.run.answers);
      if (answered.length)
        t.drafts.push({
          type: "note",
          sentVia: BOT_VIA,
          fromAdminId: null,
          body: `The bot asked: ${answered.map(([k, v]) => `${k}: ${v}`).join(" · ")}`,
        });
      if (!t.assigned && conv.assigneeId === null) {
        const to = await routeConversation(tx, conv.appId, conv.channelId);
        if (to !== null)
          t.drafts.push({ type: "assigned", sentVia: BOT_VIA, fromAdminId: null, assigneeId: to });
      }
    }
  }
  if (!t.drafts.length && "wait" in outcome) return;
  const { conversation, parts } = t.drafts.length
    ? // IDs the caller's lock reserved went to the caller's parts: these draw their own.
      await appendParts(tx, { ...conv, partIds: undefined }, t.drafts)
    : { conversation: conv, parts: [] as CreatedPart[] };
  const pub = await publishChange(tx, emit, urls, conversation, parts);
  if ("end" in outcome && outcome.end === "handed_over") {
    emit(eventOf("conversation_started_user", conversation, pub.conversationJson));
    await queueOperatorEmail(tx, conversation.id);
  }
}

/**
 * In the start's transaction, after the visitor's first message or as the conversation's first parts (a bot that
 * starts it, start-bot.ts): the run recorded and its first steps taken.
 */
export async function startBotRun(
  tx: Queryable,
  emit: Emit,
  urls: AttachmentUrl,
  conv: Conv,
  bot: BotToRun,
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO bot_runs (conversation_id, bot_id, app_id, steps)
    VALUES (${conv.id}, ${bot.id}, ${conv.appId}, ${jsonOf(bot.steps)}::jsonb)`;
  const t = new Turn({ botId: bot.id, senderId: bot.senderId, steps: bot.steps, answers: {} }, conv);
  await finish(tx, emit, urls, t, await walk(tx, t, bot.steps[0]?.id ?? null));
}

interface RunRow {
  bot_id: bigint;
  sender_id: bigint | null;
  steps: Step[];
  at: string | null;
  answers: Record<string, string>;
}

/**
 * Parts just appended to a conversation a bot runs. The visitor's message answers the step that waits: a button
 * (clicked, or its label typed) takes its branch, a valid answer to a question is set on the user and the run goes
 * on; anything else asks again. An operator's message ends the run: the conversation is theirs.
 */
export async function botSees(
  tx: Queryable,
  emit: Emit,
  ctx: Ctx,
  urls: AttachmentUrl,
  conv: Conv,
  part: Pick<CreatedPart, "type" | "body" | "sentVia" | "metaData">,
): Promise<void> {
  const [r] = await tx.$queryRaw<RunRow[]>`
    SELECT r.bot_id, b.sender_id, r.steps, r.at, r.answers
    FROM bot_runs r JOIN bots b ON b.id = r.bot_id
    WHERE r.conversation_id = ${conv.id} AND r.state = 'running'`;
  if (!r) return;
  const t = new Turn({ botId: r.bot_id, senderId: r.sender_id, steps: r.steps, answers: r.answers }, conv);
  if (part.type !== "reply_user") {
    if (part.sentVia !== BOT_VIA && (part.type === "reply_admin" || part.type === "article"))
      await finish(tx, emit, urls, t, { end: "taken_over" });
    return;
  }
  const here = r.at === null ? undefined : placeSteps(r.steps).get(r.at);
  if (!here) return finish(tx, emit, urls, t, await walk(tx, t, null));
  const s = here.step;
  if (s.type === "buttons") {
    const meta = (part.metaData ?? {}) as { bot_step?: unknown; branch?: unknown };
    const typed = part.body.trim().toLowerCase();
    const branch =
      meta.bot_step === s.id && typeof meta.branch === "number"
        ? meta.branch
        : s.buttons.findIndex((b) => b.label.trim().toLowerCase() === typed);
    const chosen = s.buttons[branch];
    if (!chosen) {
      t.say(s.body, { actions: buttonsOf(s) });
      return finish(tx, emit, urls, t, { wait: s.id });
    }
    return finish(tx, emit, urls, t, await walk(tx, t, chosen.steps[0]?.id ?? here.next));
  }
  if (s.type === "ask") {
    const value = answerOf(s.prop, part.body);
    if (value === null) {
      t.say(RETRY[askInputOf(s.prop)], { metaData: { bot_ask: { step: s.id, input: askInputOf(s.prop) } } });
      return finish(tx, emit, urls, t, { wait: s.id });
    }
    const set = await setUserPropsIn(tx, emit, ctx, {
      user: { id: String(conv.userId) },
      operations: [{ op: "update_or_create", key: s.prop, value }],
      source: { type: "bot", id: r.bot_id },
    });
    // The prop refused it (a custom prop of another type): asked again, never dropped.
    if (set.ignored.length) {
      t.say(RETRY.text, { metaData: { bot_ask: { step: s.id, input: askInputOf(s.prop) } } });
      return finish(tx, emit, urls, t, { wait: s.id });
    }
    t.run.answers[s.prop] = value;
    return finish(tx, emit, urls, t, await walk(tx, t, here.next));
  }
  return finish(tx, emit, urls, t, await walk(tx, t, here.next));
}
