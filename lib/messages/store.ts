import type { Prisma } from "../db/generated/client";
import { jsonColumn, nullableJsonColumn } from "../db/json-column";
import { invalid, lookupFailed } from "../domain/errors";
import { assertApp, type Ctx } from "../auth/context";
import { checkedAudience } from "../leads/user-matches";
import { forgetMessages } from "./triggers";
import { findLoop, loopText, type ChainLink } from "./loops";
import type { MessageRow } from "./spec";
import {
  contentSchemas,
  triggerSchema,
  type Frequency,
  type Goal,
  type MessageKind,
  type MessageStatus,
  type Schedule,
  type Trigger,
} from "./schemas";

/** What a create or an update gives; an update's absent fields keep their values. */
export interface MessageInput {
  name?: string;
  kind?: MessageKind;
  status?: MessageStatus;
  content?: unknown;
  trigger?: Trigger;
  audience?: unknown;
  timeoutSeconds?: number;
  frequency?: Frequency;
  schedule?: Schedule | null;
  goal?: Goal | null;
  controlPercent?: number;
  /** The owner saw the loop this message makes and keeps it. */
  confirmLoop?: boolean;
}

const missing = (id: bigint) => lookupFailed(`Message ${id} does not exist in this app.`);

export async function getMessage(ctx: Ctx, input: { appId: bigint; messageId: bigint }): Promise<MessageRow> {
  assertApp(ctx, input.appId);
  const m = await ctx.db.autoMessage.findFirst({ where: { id: input.messageId, appId: input.appId } });
  if (!m) throw missing(input.messageId);
  return m;
}

export async function listMessages(
  ctx: Ctx,
  input: { appId: bigint; status?: MessageStatus },
): Promise<MessageRow[]> {
  assertApp(ctx, input.appId);
  return ctx.db.autoMessage.findMany({
    where: {
      appId: input.appId,
      ...(input.status ? { status: input.status } : { NOT: { status: "archived" } }),
    },
    orderBy: { id: "desc" },
  });
}

/** The content checked against its kind's shape, its sender an operator of the app, its bot one of the app's. */
async function checkedContent(ctx: Ctx, appId: bigint, kind: MessageKind, raw: unknown) {
  const parsed = contentSchemas[kind].safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid({ [["content", ...issue.path.map(String)].join(".")]: issue.message });
  }
  const sender = "sender" in parsed.data ? parsed.data.sender : undefined;
  if (sender !== undefined) {
    const member = await ctx.db.appAdmin.findFirst({ where: { appId, adminId: sender } });
    if (!member) throw invalid({ "content.sender": `operator ${sender} is not an operator of this app` });
  }
  if ("bot" in parsed.data) {
    const bot = await ctx.db.bot.findFirst({ where: { id: parsed.data.bot, appId }, select: { id: true } });
    if (!bot) throw invalid({ "content.bot": `bot ${parsed.data.bot} is not a bot of this app` });
  }
  return jsonOf(parsed.data);
}

async function checkedTrigger(ctx: Ctx, appId: bigint, t: Trigger): Promise<void> {
  if (t.stay === "page" && t.event !== "$page_view")
    throw invalid({ "trigger.stay": "staying on the page needs the $page_view trigger" });
  if (t.message !== undefined) {
    if (!t.event.startsWith("$message_"))
      throw invalid({ "trigger.message": "only a message event ($message_sent, …) names a message" });
    const found = await ctx.db.autoMessage.findFirst({ where: { id: t.message, appId } });
    if (!found) throw invalid({ "trigger.message": `no message ${t.message} in this app` });
  }
}

const jsonOf = jsonColumn;
const nullableJson = nullableJsonColumn;

/** Refuses a message whose events come back to it within the loop window, unless the owner confirmed it. */
async function checkLoop(ctx: Ctx, spec: ChainLink & { appId: bigint; status: string }, confirmed: boolean) {
  if (confirmed || spec.status === "archived") return;
  const rows = await ctx.db.autoMessage.findMany({
    where: { appId: spec.appId, NOT: { status: "archived" } },
    select: { id: true, name: true, trigger: true, timeoutSeconds: true },
  });
  const links = rows.map((r) => ({ ...r, trigger: triggerSchema.parse(r.trigger) }));
  const loop = findLoop(spec, links);
  if (loop)
    throw invalid({
      trigger: `this message triggers itself within 30 seconds: ${loopText(loop)}; pass confirm_loop=true to keep it`,
    });
}

export async function createMessage(
  ctx: Ctx,
  input: MessageInput & {
    appId: bigint;
    name: string;
    kind: MessageKind;
    content: unknown;
    trigger: Trigger;
  },
): Promise<MessageRow> {
  assertApp(ctx, input.appId);
  const content = await checkedContent(ctx, input.appId, input.kind, input.content);
  const audience = await checkedAudience(ctx.db, input.appId, input.audience);
  await checkedTrigger(ctx, input.appId, input.trigger);
  const status = input.status ?? "active";
  // The new message's ID is not known yet; a chain back to it can only name it by ID once it exists.
  await checkLoop(
    ctx,
    {
      id: -1n,
      appId: input.appId,
      name: input.name,
      trigger: input.trigger,
      timeoutSeconds: input.timeoutSeconds ?? 0,
      status,
    },
    input.confirmLoop ?? false,
  );
  const row = await ctx.db.autoMessage.create({
    data: {
      appId: input.appId,
      name: input.name,
      kind: input.kind,
      status,
      content,
      trigger: jsonOf(input.trigger),
      audience: nullableJson(audience),
      timeoutSeconds: input.timeoutSeconds ?? 0,
      frequency: jsonOf(input.frequency ?? { type: "once" }),
      schedule: nullableJson(input.schedule ?? null),
      goal: nullableJson(input.goal ?? null),
      controlPercent: input.controlPercent ?? 0,
    },
  });
  forgetMessages();
  return row;
}

/**
 * Changes a message. Users it was sent to are not sent it again for the change (their sends stand), and sends
 * already scheduled go out as the message is when they fire.
 */
export async function updateMessage(
  ctx: Ctx,
  input: MessageInput & { appId: bigint; messageId: bigint },
): Promise<MessageRow> {
  const old = await getMessage(ctx, input);
  const kind = (input.kind ?? old.kind) as MessageKind;
  if (input.kind !== undefined && input.kind !== old.kind && input.content === undefined)
    throw invalid({ content: "a message that changes its kind needs the new kind's content" });
  const content =
    input.content === undefined ? undefined : await checkedContent(ctx, old.appId, kind, input.content);
  const audience =
    input.audience === undefined ? undefined : await checkedAudience(ctx.db, old.appId, input.audience);
  if (input.trigger) await checkedTrigger(ctx, old.appId, input.trigger);
  const trigger = input.trigger ?? triggerSchema.parse(old.trigger);
  await checkLoop(
    ctx,
    {
      id: old.id,
      appId: old.appId,
      name: input.name ?? old.name,
      trigger,
      timeoutSeconds: input.timeoutSeconds ?? old.timeoutSeconds,
      status: input.status ?? old.status,
    },
    input.confirmLoop ?? false,
  );
  const row = await ctx.db.autoMessage.update({
    where: { id: old.id },
    data: {
      name: input.name,
      kind: input.kind,
      status: input.status,
      content,
      trigger: input.trigger && jsonOf(input.trigger),
      audience: audience === undefined ? undefined : nullableJson(audience),
      timeoutSeconds: input.timeoutSeconds,
      frequency: input.frequency && jsonOf(input.frequency),
      schedule: input.schedule === undefined ? undefined : nullableJson(input.schedule),
      goal: input.goal === undefined ? undefined : nullableJson(input.goal),
      controlPercent: input.controlPercent,
      updated: new Date(),
    },
  });
  forgetMessages();
  return row;
}

/** A copy, paused, named "… (copy)": its sends and statistics start from nothing. */
export async function duplicateMessage(ctx: Ctx, input: { appId: bigint; messageId: bigint }) {
  const m = await getMessage(ctx, input);
  return ctx.db.autoMessage.create({
    data: {
      appId: m.appId,
      name: `${m.name} (copy)`.slice(0, 255),
      kind: m.kind,
      status: "paused",
      content: m.content as Prisma.InputJsonValue,
      trigger: m.trigger as Prisma.InputJsonValue,
      audience: nullableJson(m.audience),
      timeoutSeconds: m.timeoutSeconds,
      frequency: m.frequency as Prisma.InputJsonValue,
      schedule: nullableJson(m.schedule),
      goal: nullableJson(m.goal),
      controlPercent: m.controlPercent,
    },
  });
}
