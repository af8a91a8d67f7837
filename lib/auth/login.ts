import crypto from "node:crypto";
import type { Db } from "../db/client";
import type { Ctx } from "./context";
import { wrongCredentials, throttled } from "../domain/errors";
import { getRuntime } from "../server/runtime";
import { verifyPassword } from "./passwords";

// Checked against when the email is unknown, so both failures take the same time.
const DUMMY_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

/**
 * Checks an operator's password. Failures are counted per account and per client address (in Redis when there
 * is one, so every instance sees them): past the limit, attempts are refused with 429 before any password is
 * checked, the account included when the password is right. Counted for unknown emails too, so that a lockout
 * tells nothing about which emails exist.
 */
export async function logIn(
  ctx: Pick<Ctx, "db">,
  input: { email: string; password: string; address: string },
) {
  const { logins } = getRuntime();
  const email = input.email.trim().toLowerCase();
  // A hash, not the address itself: the log and Redis must not collect operators' emails.
  const account = crypto.hash("sha256", email, "hex").slice(0, 16);
  const keys = { account: `login:${account}`, address: `login:${input.address}` };
  const refuse = (reason: string) =>
    console.warn(`login refused: account=${account} ip=${input.address} reason=${reason}`);

  const locked = (await Promise.all([logins.account.check(keys.account), logins.address.check(keys.address)]))
    .filter((v) => !v.ok)
    .map((v) => v.retryAfter);
  if (locked.length) {
    refuse("throttled");
    throw throttled("Too many failed logins: try again later.", Math.max(...locked));
  }
  const admin = await ctx.db.admin.findUnique({ where: { email } });
  const ok = await verifyPassword(input.password, admin?.passwordHash ?? DUMMY_HASH);
  if (!admin || !ok) {
    refuse(admin ? "wrong password" : "unknown email");
    await Promise.all([logins.account.fail(keys.account), logins.address.fail(keys.address)]);
    throw wrongCredentials("Wrong email or password.");
  }
  // The address keeps its count: one account of one's own must not reset the guessing of others.
  await logins.account.reset(keys.account);
  return admin;
}

export async function describeAdmin(db: Db, adminId: bigint) {
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
