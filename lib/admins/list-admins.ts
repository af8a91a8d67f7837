import type { Ctx } from "../auth/context";
import { assertApp } from "../auth/context";

export interface AppAdminRow {
  id: bigint;
  name: string;
  email: string;
  avatar: string;
  role: string;
  created: Date;
}

/** The app's operators (for the Inbox's assignee picker and Settings), oldest first. */
export async function listAdmins(ctx: Ctx, input: { appId: bigint }): Promise<AppAdminRow[]> {
  assertApp(ctx, input.appId);
  const rows = await ctx.db.appAdmin.findMany({
    where: { appId: input.appId },
    select: {
      role: true,
      created: true,
      admin: { select: { id: true, name: true, email: true, avatar: true } },
    },
    orderBy: [{ created: "asc" }, { adminId: "asc" }],
  });
  return rows.map((r) => ({ ...r.admin, role: r.role, created: r.created }));
}

export function serializeAppAdmin(a: AppAdminRow) {
  return {
    id: a.id,
    type: "admin" as const,
    name: a.name,
    email: a.email,
    avatar: a.avatar,
    role: a.role,
    created: Math.floor(a.created.getTime() / 1000),
  };
}
