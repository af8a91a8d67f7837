import type { Prisma } from "../db/generated/client";
import { jsonColumn, nullableJsonColumn } from "../db/json-column";
import { invalid, lookupFailed } from "../domain/errors";
import { assertApp, type Ctx } from "../auth/context";
import { checkedAudience } from "../leads/user-matches";
import { allSteps, nameSteps, stepsSchema, type BotKind, type BotStart, type BotStatus } from "./steps";

export interface BotRow {
  id: bigint;
  appId: bigint;
  name: string;
  kind: string;
  status: string;
  start: Prisma.JsonValue;
  audience: Prisma.JsonValue;
  senderId: bigint | null;
  steps: Prisma.JsonValue;
  created: Date;
  updated: Date;
}

/** What a create or an update gives; an update's absent fields keep their values. */
export interface BotInput {
  name?: string;
  kind?: BotKind;
  status?: BotStatus;
  start?: BotStart;
  audience?: unknown;
  /** null: the bot speaks as the app. */
  sender?: bigint | null;
  steps?: unknown;
}

const missing = (id: bigint) => lookupFailed(`Bot ${id} does not exist in this app.`);

const jsonOf = jsonColumn;
const nullableJson = nullableJsonColumn;

export async function getBot(ctx: Ctx, input: { appId: bigint; botId: bigint }): Promise<BotRow> {
  assertApp(ctx, input.appId);
  const b = await ctx.db.bot.findFirst({ where: { id: input.botId, appId: input.appId } });
  if (!b) throw missing(input.botId);
  return b;
}

export async function listBots(ctx: Ctx, input: { appId: bigint; status?: BotStatus }): Promise<BotRow[]> {
  assertApp(ctx, input.appId);
  return ctx.db.bot.findMany({
    where: {
      appId: input.appId,
      ...(input.status ? { status: input.status } : { NOT: { status: "archived" } }),
    },
    orderBy: { id: "desc" },
  });
}

const isMember = async (ctx: Ctx, appId: bigint, adminId: bigint) =>
  !!(await ctx.db.appAdmin.findFirst({ where: { appId, adminId }, select: { adminId: true } }));

/**
 * The steps checked as the runtime will run them: the shape, every step named, each operator one of the app's and
 * each channel the app's. Errors name the step by its path (`steps.1.buttons.0.steps.0.channel`).
 */
async function checkedSteps(ctx: Ctx, appId: bigint, raw: unknown): Promise<Prisma.InputJsonValue> {
  const parsed = stepsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid({ [["steps", ...issue.path.map(String)].join(".")]: issue.message });
  }
  const named = nameSteps(parsed.data);
  if ("error" in named) throw invalid({ [named.path]: named.error });
  for (const s of allSteps(named.steps)) {
    if (s.type !== "assign") continue;
    if (s.admin !== undefined && !(await isMember(ctx, appId, BigInt(s.admin))))
      throw invalid({ steps: `step "${s.id}": operator ${s.admin} is not an operator of this app` });
    if (s.channel !== undefined) {
      const ch = await ctx.db.channel.findFirst({
        where: { id: BigInt(s.channel), appId },
        select: { id: true },
      });
      if (!ch) throw invalid({ steps: `step "${s.id}": no channel ${s.channel} in this app` });
    }
  }
  return jsonOf(named.steps);
}

async function checkedSender(ctx: Ctx, appId: bigint, sender: bigint | null | undefined) {
  if (sender === null || sender === undefined) return sender;
  if (!(await isMember(ctx, appId, sender)))
    throw invalid({ sender: `operator ${sender} is not an operator of this app` });
  return sender;
}

export async function createBot(
  ctx: Ctx,
  input: BotInput & { appId: bigint; name: string; kind: BotKind; steps: unknown },
): Promise<BotRow> {
  assertApp(ctx, input.appId);
  const steps = await checkedSteps(ctx, input.appId, input.steps);
  const audience = await checkedAudience(ctx.db, input.appId, input.audience);
  const sender = await checkedSender(ctx, input.appId, input.sender);
  return ctx.db.bot.create({
    data: {
      appId: input.appId,
      name: input.name,
      kind: input.kind,
      status: input.status ?? "active",
      start: jsonOf(input.start ?? { when: input.kind === "lead_bot" ? "no_operator" : "always" }),
      audience: nullableJson(audience),
      senderId: sender ?? null,
      steps,
    },
  });
}

/** Changes a bot. Conversations it is running keep the steps they started with. */
export async function updateBot(
  ctx: Ctx,
  input: BotInput & { appId: bigint; botId: bigint },
): Promise<BotRow> {
  const old = await getBot(ctx, input);
  const steps = input.steps === undefined ? undefined : await checkedSteps(ctx, old.appId, input.steps);
  const audience =
    input.audience === undefined ? undefined : await checkedAudience(ctx.db, old.appId, input.audience);
  const sender = await checkedSender(ctx, old.appId, input.sender);
  return ctx.db.bot.update({
    where: { id: old.id },
    data: {
      name: input.name,
      kind: input.kind,
      status: input.status,
      start: input.start && jsonOf(input.start),
      audience: audience === undefined ? undefined : nullableJson(audience),
      senderId: sender,
      steps,
      updated: new Date(),
    },
  });
}

/** How the bot's runs went: started, still running, and how the others ended. */
export async function botFigures(ctx: Ctx, botIds: bigint[]) {
  const rows = botIds.length
    ? await ctx.db.$queryRaw<{ bot_id: bigint; state: string; n: bigint }[]>`
        SELECT bot_id, state, count(*) AS n FROM bot_runs WHERE bot_id = ANY(${botIds}::bigint[])
        GROUP BY bot_id, state`
    : [];
  const out = new Map(
    botIds.map((id) => [id, { started: 0, running: 0, handed_over: 0, closed: 0, taken_over: 0 }]),
  );
  for (const r of rows) {
    const f = out.get(r.bot_id);
    if (!f) continue;
    const n = Number(r.n);
    f.started += n;
    if (r.state in f) f[r.state as "running"] += n;
  }
  return out;
}
