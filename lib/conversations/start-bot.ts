import type { Tx } from "../db/client";
import type { Emit } from "../eventlog/append";
import type { AttachmentUrl } from "../attachments/sign";
import type { BotToRun } from "../bots/steps";
import { startBotRun } from "./bot-run";
import { selectConversations } from "./rows";
import { countConversation } from "./start";

/**
 * A conversation a bot opens itself: a proactive message of kind `bot` (lib/messages/send.ts; `message` is its ID),
 * or the messenger's "New conversation" with a launcher bot (`assistant_type` widget_bot). No visitor message comes
 * first, the bot's first steps are its first parts, and the bot runs it (`assistant_type` the bot's kind unless
 * told, out of the Inbox) until it hands over, when it is routed like any other.
 */
export async function openBotConversation(
  tx: Tx,
  emit: Emit,
  urls: AttachmentUrl,
  input: { appId: bigint; userId: bigint; messageId?: bigint; assistantType?: string; bot: BotToRun },
): Promise<bigint> {
  await countConversation(tx, emit, input.userId);
  const created = await tx.conversation.create({
    data: {
      appId: input.appId,
      userId: input.userId,
      message: input.messageId === undefined ? undefined : Number(input.messageId),
      assistantType: input.assistantType ?? input.bot.kind,
    },
    select: { id: true },
  });
  const [conv] = await selectConversations(tx, [created.id]);
  await startBotRun(tx, emit, urls, conv!, input.bot);
  return created.id;
}
