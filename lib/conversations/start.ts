import type { Ctx } from "../auth/context";
import { assertApp, requireAppId } from "../auth/context";
import type { Tx } from "../db/client";
import { invalid, lookupFailed } from "../domain/errors";
import { withEvents, type Emit } from "../eventlog/append";
import { routeConversation } from "./routing";
import { announceIfNewLead } from "../users/lead-events";
import { attachmentUrls, publicBase } from "../attachments/sign";
import { readUpload, type Upload } from "../attachments/store";
import { appendParts, type PartDraft } from "../parts/append";
import type { PartView } from "../parts/load";
import { resolveAdmin, sentVia, type AdminRef } from "./actors";
import { publishChange } from "./events";
import { eventOf } from "../contract/socket";
import { checkBody } from "./reply";
import { selectConversations } from "./rows";
import { startBotRun } from "./bot-run";
import type { BotToRun } from "../bots/steps";

const MAX_ID = 2n ** 63n - 1n;

/** `{id}` of /users/{id}/…: the service's user ID, or with by_user_id the caller's own user ID. */
export interface PathUser {
  id: string;
  byUserId: boolean;
  app?: bigint;
}

interface MessageInput {
  user: PathUser;
  body?: string;
  file?: File;
  filename?: string;
  randomId?: number;
  channel?: bigint;
}

export interface StartInput extends MessageInput {
  referrer?: string;
  /** The bot that answers first (lib/bots/start.ts): the conversation stays out of the Inbox until it hands over. */
  bot?: BotToRun | null;
}

export interface SendInput extends MessageInput {
  bodyJson?: Record<string, unknown>;
  fromAdmin?: AdminRef;
}

export interface Started {
  conversationId: bigint;
  part: PartView;
}

async function precheck(input: MessageInput): Promise<Upload | undefined> {
  const body = input.body ?? "";
  checkBody(body);
  if (input.filename !== undefined && !input.file) throw invalid({ filename: "needs a file" });
  if (input.file && input.filename === undefined) throw invalid({ filename: "is required when file is set" });
  const upload = input.file
    ? await readUpload(input.file, input.filename, { file: "file", name: "filename" })
    : undefined;
  if (body.trim() === "" && !upload) throw invalid({ body: "body or file (with filename) is required" });
  return upload;
}

async function findUser(
  ctx: Ctx,
  tx: Tx,
  u: PathUser,
  create: boolean,
): Promise<{ id: bigint; appId: bigint }> {
  if (!u.byUserId) {
    if (!/^\d{1,19}$/.test(u.id) || BigInt(u.id) > MAX_ID) {
      throw invalid({ id: "must be a user ID (or pass by_user_id=true)" });
    }
    const found = await tx.user.findUnique({
      where: { id: BigInt(u.id) },
      select: { id: true, appId: true },
    });
    if (!found) throw lookupFailed(`User ${u.id} does not exist.`);
    assertApp(ctx, found.appId);
    return found;
  }
  const appId = u.app ?? requireAppId(ctx);
  assertApp(ctx, appId);
  if (u.id.length > 255) throw invalid({ id: "must be at most 255 characters" });
  if (create) {
    // ON CONFLICT: two first messages of one new visitor at once still make one user.
    await tx.$executeRaw`INSERT INTO users (app_id, user_id) VALUES (${appId}, ${u.id}) ON CONFLICT (app_id, user_id) DO NOTHING`;
  }
  const found = await tx.user.findUnique({
    where: { appId_userId: { appId, userId: u.id } },
    select: { id: true, appId: true },
  });
  if (!found) throw lookupFailed(`No user with user_id "${u.id}" in this app.`);
  return found;
}

async function checkChannel(tx: Tx, appId: bigint, channel: bigint | undefined): Promise<void> {
  if (channel === undefined) return;
  const found = await tx.channel.findFirst({ where: { id: channel, appId }, select: { id: true } });
  if (!found) throw lookupFailed(`No channel ${channel} in this app.`);
}

/** The user's conversation_count goes up; the lead trigger recomputes the flag on it, so a lead may be announced. */
export async function countConversation(tx: Tx, emit: Emit, userId: bigint): Promise<void> {
  const before = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { isLead: true } });
  await tx.user.update({ where: { id: userId }, data: { conversationCount: { increment: 1 } } });
  await announceIfNewLead(tx, emit, { id: userId, wasLead: before.isLead });
}

/**
 * A new conversation with its first part, in one transaction; the user's conversation_count goes up (the lead
 * trigger reads it).
 */
async function openConversation(
  ctx: Ctx,
  input: MessageInput,
  opts: {
    createUser: boolean;
    message?: object | number;
    bot?: BotToRun | null;
    draft: (tx: Tx, user: { id: bigint; appId: bigint }) => Promise<PartDraft>;
    /** Parts before the message, in its group (a proactive message the visitor answers). */
    lead?: PartDraft[];
    /** Runs last in the transaction, with the new conversation (what else the start records). */
    also?: (tx: Tx, emit: Emit, conversationId: bigint) => Promise<void>;
  },
  upload: Upload | undefined,
): Promise<Started> {
  const urls = await attachmentUrls(ctx.db, publicBase());
  const { conversationId, part } = await withEvents(ctx.db, async (tx, emit) => {
    const user = await findUser(ctx, tx, input.user, opts.createUser);
    await checkChannel(tx, user.appId, input.channel);
    const draft = await opts.draft(tx, user);
    await countConversation(tx, emit, user.id);
    // Only a visitor's first message is routed: an operator's outbound message stays theirs to follow up.
    // A bot's conversation is routed when it hands over.
    const routedTo =
      draft.type === "reply_user" && !opts.bot
        ? await routeConversation(tx, user.appId, input.channel ?? null)
        : null;
    const created = await tx.conversation.create({
      data: {
        appId: user.appId,
        userId: user.id,
        channelId: input.channel ?? null,
        message: opts.message,
        assistantType: opts.bot?.kind ?? null,
      },
      select: { id: true },
    });
    const [conv] = await selectConversations(tx, [created.id]);
    const message: PartDraft = { ...draft, body: input.body ?? "", randomId: input.randomId ?? 0, upload };
    // Routing assigns as an operator would, with the same `assigned` part (from no one: an automatic change) in
    // the message's group, before it as with a reply's auto_assign.
    const drafts: PartDraft[] =
      routedTo === null
        ? [...(opts.lead ?? []), message]
        : [
            ...(opts.lead ?? []),
            { type: "assigned", sentVia: draft.sentVia, fromAdminId: null, assigneeId: routedTo },
            message,
          ];
    const { ids, conversation, parts } = await appendParts(tx, conv!, drafts);
    const pub = await publishChange(tx, emit, urls, conversation, parts);
    if (draft.type === "reply_user" && !opts.bot)
      emit(eventOf("conversation_started_user", conversation, pub.conversationJson));
    const assigned = routedTo === null ? undefined : pub.partJson.get(ids[opts.lead?.length ?? 0]!);
    if (assigned) {
      emit(
        eventOf("conversation_assigned", conversation, {
          conversation: created.id,
          assignee: assigned.assignee ?? null,
          part: assigned,
        }),
      );
    }
    if (opts.bot) await startBotRun(tx, emit, urls, conversation, opts.bot);
    await opts.also?.(tx, emit, created.id);
    return { conversationId: created.id, part: pub.parts[pub.parts.length - 1]! };
  });
  return { conversationId, part };
}

/** A conversation whose first message is the visitor's; by_user_id creates the user when new. */
export async function startConversation(ctx: Ctx, input: StartInput): Promise<Started> {
  const upload = await precheck(input);
  return openConversation(
    ctx,
    input,
    {
      createUser: true,
      bot: input.bot,
      draft: (_tx, user) =>
        Promise.resolve({
          type: "reply_user",
          fromUserId: user.id,
          sentVia: sentVia(ctx),
          referrer: input.referrer,
        }),
    },
    upload,
  );
}

/**
 * An operator's message that opens a conversation. It stays out of the Inbox list until the visitor answers
 * (rule 1), and `message` tells it was a manual message. by_user_id never creates a user.
 */
export async function sendMessage(ctx: Ctx, input: SendInput): Promise<Started> {
  const upload = await precheck(input);
  const via = sentVia(ctx);
  return openConversation(
    ctx,
    input,
    {
      createUser: false,
      message: { type: "manual", sent_via: via },
      draft: async (tx, user) => ({
        type: "reply_admin",
        sentVia: via,
        bodyJson: input.bodyJson,
        fromAdminId: await resolveAdmin(ctx, tx, { appId: user.appId }, input.fromAdmin),
      }),
    },
    upload,
  );
}

/**
 * The visitor answers a proactive message: a conversation of its own (`message` the message's ID) opens with the
 * message as its sender's part and the answer after it, routed as any visitor's first message; `also` records the
 * answer on the message in the same transaction.
 */
export async function startFromMessage(
  ctx: Ctx,
  input: StartInput & {
    messageId: bigint;
    sender: bigint | null;
    text: string;
    also: (tx: Tx, emit: Emit, conversationId: bigint) => Promise<void>;
  },
): Promise<Started> {
  const upload = await precheck(input);
  const via = sentVia(ctx);
  return openConversation(
    ctx,
    input,
    {
      createUser: false,
      message: Number(input.messageId),
      lead: [{ type: "reply_admin", sentVia: via, body: input.text, fromAdminId: input.sender }],
      also: input.also,
      draft: (_tx, user) =>
        Promise.resolve({ type: "reply_user", fromUserId: user.id, sentVia: via, referrer: input.referrer }),
    },
    upload,
  );
}
