import type { Ctx } from "../auth/context";
import type { Tx } from "../db/client";
import { userMatches } from "../leads/user-matches";
import { startSchema, stepsSchema, type BotKind, type BotToRun } from "./steps";

/** Who can answer now: the messenger's own reading (lib/messenger/activity.ts operatorsNow). */
export interface OperatorsNow {
  online: boolean;
  /** Set while the app is closed by its office hours. */
  opensAt: Date | null;
}

/**
 * The bot a visitor's first message starts, if any: the app's oldest active bot whose start rule holds now and
 * whose audience the visitor matches. Who is online is asked only when a bot's rule depends on it.
 */
export async function botToStart(
  ctx: Ctx,
  input: { appId: bigint; userId: bigint; operators: () => Promise<OperatorsNow> },
): Promise<BotToRun | null> {
  const bots = await ctx.db.bot.findMany({
    where: { appId: input.appId, status: "active" },
    orderBy: { id: "asc" },
    select: { id: true, kind: true, start: true, audience: true, senderId: true, steps: true },
  });
  let operators: OperatorsNow | undefined;
  for (const b of bots) {
    const start = startSchema.safeParse(b.start);
    const steps = stepsSchema.safeParse(b.steps);
    if (!start.success || !steps.success) continue;
    const when = start.data.when;
    if (when === "by_message" || when === "launcher") continue;
    if (when !== "always") {
      operators ??= await input.operators();
      const open = operators.opensAt === null;
      const holds = when === "no_operator" ? !operators.online : when === "office_hours" ? open : !open;
      if (!holds) continue;
    }
    if (!(await userMatches(ctx.db, { appId: input.appId, userId: input.userId, filters: b.audience })))
      continue;
    return { id: b.id, kind: b.kind as BotKind, senderId: b.senderId, steps: steps.data };
  }
  return null;
}

/**
 * A bot a proactive message starts (its content names it): the app's, active, with steps that still parse; null
 * otherwise (paused or archived since the message was saved).
 */
export async function activeBot(
  db: Pick<Tx, "bot">,
  input: { appId: bigint; botId: bigint },
): Promise<BotToRun | null> {
  const b = await db.bot.findFirst({
    where: { id: input.botId, appId: input.appId, status: "active" },
    select: { id: true, kind: true, senderId: true, steps: true },
  });
  const steps = stepsSchema.safeParse(b?.steps);
  if (!b || !steps.success) return null;
  return { id: b.id, kind: b.kind as BotKind, senderId: b.senderId, steps: steps.data };
}

/** The app's active launcher bots, oldest first: what the messenger's "New conversation" may start. */
const launcherBots = (db: Pick<Tx, "$queryRaw">, appId: bigint) =>
  db.$queryRaw<{ id: bigint; kind: string; sender_id: bigint | null; steps: unknown; audience: unknown }[]>`
    SELECT id, kind, sender_id, steps, audience FROM bots
    WHERE app_id = ${appId} AND status = 'active' AND start->>'when' = 'launcher' ORDER BY id`;

/** Whether the messenger's "New conversation" may start a bot (the visitor's boot says so). */
export async function hasLauncherBot(db: Pick<Tx, "$queryRaw">, appId: bigint): Promise<boolean> {
  return (await launcherBots(db, appId)).length > 0;
}

/** The launcher bot that starts the visitor's new conversation: the oldest active one whose audience they match. */
export async function launcherBotFor(
  ctx: Ctx,
  input: { appId: bigint; userId: bigint },
): Promise<BotToRun | null> {
  for (const b of await launcherBots(ctx.db, input.appId)) {
    const steps = stepsSchema.safeParse(b.steps);
    if (!steps.success) continue;
    if (!(await userMatches(ctx.db, { appId: input.appId, userId: input.userId, filters: b.audience })))
      continue;
    return { id: b.id, kind: b.kind as BotKind, senderId: b.sender_id, steps: steps.data };
  }
  return null;
}
