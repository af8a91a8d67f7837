import { assertApp, type Ctx } from "../auth/context";
import type { Tx } from "../db/client";
import { lookupFailed } from "../domain/errors";
import type { Serialized } from "../contract/schemas";
import { routingModeSchema, type AppRouting } from "./schemas";

const select = { routing: true, routingCap: true, assignOnReply: true } as const;

/** Per channel, the operators its conversations are routed among (only channels that restrict it). */
type ChannelOperators = Map<bigint, bigint[]>;

function serialize(
  a: { routing: string; routingCap: number | null; assignOnReply: boolean },
  channels: ChannelOperators,
): Serialized<AppRouting> {
  const mode = routingModeSchema.safeParse(a.routing);
  return {
    routing: mode.success ? mode.data : "off",
    routing_cap: a.routingCap,
    assign_on_reply: a.assignOnReply,
    channel_operators: Object.fromEntries([...channels].map(([c, ops]) => [String(c), ops])),
  };
}

async function channelOperators(
  db: Pick<Tx, "channelRoutingOperator">,
  appId: bigint,
): Promise<ChannelOperators> {
  const rows = await db.channelRoutingOperator.findMany({
    where: { appId },
    select: { channelId: true, adminId: true },
    orderBy: [{ channelId: "asc" }, { adminId: "asc" }],
  });
  const out: ChannelOperators = new Map();
  for (const r of rows) out.set(r.channelId, [...(out.get(r.channelId) ?? []), r.adminId]);
  return out;
}

export async function getRouting(ctx: Ctx, input: { appId: bigint }): Promise<Serialized<AppRouting>> {
  assertApp(ctx, input.appId);
  const app = await ctx.db.app.findUnique({ where: { id: input.appId }, select });
  if (!app) throw lookupFailed(`App ${input.appId} does not exist.`);
  return serialize(app, await channelOperators(ctx.db, input.appId));
}

/**
 * Sets the routing mode and its cap (0: no cap), and whether a reply assigns; `channels` replaces the operators
 * of each channel it names (an empty list: the channel routes among all the app's operators again). What is not
 * given stays.
 */
export async function updateRouting(
  ctx: Ctx,
  input: {
    appId: bigint;
    routing?: AppRouting["routing"];
    cap?: number;
    assignOnReply?: boolean;
    channels?: ChannelOperators;
  },
): Promise<Serialized<AppRouting>> {
  assertApp(ctx, input.appId);
  return ctx.db.$transaction(async (tx) => {
    const app = await tx.app.update({
      where: { id: input.appId },
      data: {
        ...(input.routing !== undefined ? { routing: input.routing } : {}),
        ...(input.cap !== undefined ? { routingCap: input.cap === 0 ? null : input.cap } : {}),
        ...(input.assignOnReply !== undefined ? { assignOnReply: input.assignOnReply } : {}),
      },
      select,
    });
    for (const [channelId, adminIds] of input.channels ?? []) {
      await setChannelOperators(tx, input.appId, channelId, adminIds);
    }
    return serialize(app, await channelOperators(tx, input.appId));
  });
}

async function setChannelOperators(tx: Tx, appId: bigint, channelId: bigint, adminIds: bigint[]) {
  const channel = await tx.channel.findFirst({ where: { id: channelId, appId }, select: { id: true } });
  if (!channel) throw lookupFailed(`No channel ${channelId} in this app (channel_operators).`);
  const unique = [...new Set(adminIds)];
  const members = await tx.appAdmin.findMany({
    where: { appId, adminId: { in: unique } },
    select: { adminId: true },
  });
  const missing = unique.find((a) => !members.some((m) => m.adminId === a));
  if (missing !== undefined) throw lookupFailed(`No admin ${missing} in this app (channel_operators).`);
  await tx.channelRoutingOperator.deleteMany({ where: { channelId } });
  await tx.channelRoutingOperator.createMany({
    data: unique.map((adminId) => ({ channelId, appId, adminId })),
  });
}
