import type { Ctx } from "../auth/context";
import type { Serialized } from "../contract/schemas";
import type { BotStats } from "./schemas";
import { allSteps, stepsSchema } from "./steps";
import { getBot } from "./store";

type Figures = BotStats["runs"];
const OUTCOMES = ["running", "handed_over", "closed", "taken_over"] as const;
const zero = (): Figures => ({ started: 0, running: 0, handed_over: 0, closed: 0, taken_over: 0 });

function count(f: Figures, state: string, n: number) {
  f.started += n;
  if ((OUTCOMES as readonly string[]).includes(state)) f[state as (typeof OUTCOMES)[number]] += n;
}

/**
 * A bot's runs counted from `bot_runs`, exactly: by outcome, per day they started (UTC), and per step of its tree
 * today (how many runs reached it, how many wait there now). A step a run reached that the tree no longer has is
 * left out of the steps.
 */
export async function botStats(
  ctx: Ctx,
  input: { appId: bigint; botId: bigint },
): Promise<Serialized<BotStats>> {
  const bot = await getBot(ctx, input);
  const [byDay, reached, waiting] = await Promise.all([
    ctx.db.$queryRaw<{ day: string; state: string; n: bigint }[]>`
      SELECT to_char(started AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, state, count(*) AS n
      FROM bot_runs WHERE bot_id = ${bot.id} GROUP BY 1, 2 ORDER BY 1`,
    ctx.db.$queryRaw<{ step: string; n: bigint }[]>`
      SELECT step, count(*) AS n FROM bot_runs, jsonb_array_elements_text(reached) AS step
      WHERE bot_id = ${bot.id} GROUP BY step`,
    ctx.db.$queryRaw<{ step: string; n: bigint }[]>`
      SELECT at AS step, count(*) AS n FROM bot_runs
      WHERE bot_id = ${bot.id} AND state = 'running' AND at IS NOT NULL GROUP BY at`,
  ]);
  const runs = zero();
  const days = new Map<string, Figures>();
  for (const r of byDay) {
    let d = days.get(r.day);
    if (!d) days.set(r.day, (d = zero()));
    count(d, r.state, Number(r.n));
    count(runs, r.state, Number(r.n));
  }
  const reachedBy = new Map(reached.map((r) => [r.step, Number(r.n)]));
  const waitingAt = new Map(waiting.map((r) => [r.step, Number(r.n)]));
  const tree = stepsSchema.safeParse(bot.steps);
  const ids = tree.success ? allSteps(tree.data).flatMap((s) => (s.id ? [s.id] : [])) : [];
  return {
    bot: bot.id,
    runs,
    days: [...days].map(([day, f]) => ({ day, ...f })),
    steps: ids.map((step) => ({
      step,
      reached: reachedBy.get(step) ?? 0,
      waiting: waitingAt.get(step) ?? 0,
    })),
  };
}
