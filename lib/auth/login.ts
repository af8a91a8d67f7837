import type { Db } from "../db/client";
import { ApiError } from "../api/errors";
import { verifyPassword } from "./passwords";

// Checked against when the email is unknown, so both failures take the same time.
const DUMMY_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

export async function logIn(db: Db, input: { email: string; password: string }) {
  const admin = await db.admin.findUnique({ where: { email: input.email.trim().toLowerCase() } });
  const ok = await verifyPassword(input.password, admin?.passwordHash ?? DUMMY_HASH);
  if (!admin || !ok) throw new ApiError("AuthenticationFailed", "Wrong email or password.");
  return admin;
}

export async function describeOperator(db: Db, adminId: bigint) {
  const admin = await db.admin.findUniqueOrThrow({
    where: { id: adminId },
    select: { id: true, name: true, email: true, avatar: true },
  });
  const memberships = await db.appAdmin.findMany({
    where: { adminId },
    select: { role: true, app: { select: { id: true, name: true } } },
    orderBy: { appId: "asc" },
  });
  return { admin, apps: memberships.map((m) => ({ id: m.app.id, name: m.app.name, role: m.role })) };
}
