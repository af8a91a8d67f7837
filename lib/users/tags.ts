import { Prisma } from "../db/generated/client";
import type { Ctx } from "../auth/context";
import { findUserId, type UserRef } from "./resolve";

export async function tagsOf(ctx: Ctx, userId: bigint): Promise<string[]> {
  const rows = await ctx.db.userTag.findMany({
    where: { userId },
    select: { tag: true },
    orderBy: { tag: "asc" },
  });
  return rows.map((r) => r.tag);
}

/** Adding a present tag changes nothing and still succeeds, as for conversations. */
export async function addUserTag(
  ctx: Ctx,
  input: { user: UserRef; tag: string },
): Promise<{ changed: boolean; tags: string[] }> {
  const u = await findUserId(ctx, input.user);
  const n = await ctx.db.$executeRaw(Prisma.sql`
    INSERT INTO user_tags (user_id, app_id, tag) VALUES (${u.id}, ${u.appId}, ${input.tag})
    ON CONFLICT (user_id, tag) DO NOTHING`);
  return { changed: n > 0, tags: await tagsOf(ctx, u.id) };
}

/** Removing an absent tag changes nothing and still succeeds. */
export async function removeUserTag(
  ctx: Ctx,
  input: { user: UserRef; tag: string },
): Promise<{ changed: boolean; tags: string[] }> {
  const u = await findUserId(ctx, input.user);
  const res = await ctx.db.userTag.deleteMany({ where: { userId: u.id, tag: input.tag } });
  return { changed: res.count > 0, tags: await tagsOf(ctx, u.id) };
}
