import type { Ctx } from "../auth/context";
import { Prisma } from "../db/generated/client";
import { invalid } from "../domain/errors";
import { addAdminToApp, TX_OPTIONS } from "./create-admin";
import type { AdminRole } from "./schemas";
import { checkPassword, cleanEmail, cleanName, InputError, nameFromEmail } from "./input";
import { requireOwner } from "./owners";
import type { AppAdminRow } from "./list-admins";

export interface AddAdminInput {
  appId: bigint;
  email: string;
  name?: string;
  /** Needed only when no admin has this email yet; an existing admin keeps their own. */
  password?: string;
  role?: AdminRole;
}

/**
 * Adds an operator to the app: a new admin, or an existing one (same email) who becomes a member with their
 * name and password untouched. One who is already a member is refused, so a typo never passes silently.
 */
export async function addAdmin(ctx: Ctx, input: AddAdminInput): Promise<AppAdminRow> {
  try {
    const email = cleanEmail(input.email);
    const name = cleanName(input.name, "name", nameFromEmail(email));
    return await ctx.db.$transaction(async (tx) => {
      await requireOwner(ctx, tx, input.appId);
      const existing = await tx.admin.findUnique({ where: { email }, select: { id: true } });
      let password = "";
      if (!existing) {
        if (!input.password) throw new InputError(`A password is required for a new operator.`, "password");
        password = checkPassword(input.password);
      }
      const { admin } = await addAdminToApp(tx, input.appId, { email, name, password }, input.role);
      const row = await tx.appAdmin.findUniqueOrThrow({
        where: { appId_adminId: { appId: input.appId, adminId: admin.id } },
        select: { role: true, created: true, admin: { select: { avatar: true, name: true } } },
      });
      return { ...admin, ...row.admin, role: row.role, created: row.created };
    }, TX_OPTIONS);
  } catch (err) {
    // Concurrent adds of one email both pass the checks above; the loser's insert (of the admin or of the
    // membership) hits a unique index. It is told what a later add is told.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      const message = `${cleanEmail(input.email)} is already an operator of app ${input.appId}.`;
      throw invalid({ email: message }, message);
    }
    throw err;
  }
}
