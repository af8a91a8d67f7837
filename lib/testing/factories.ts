import crypto from "node:crypto";
import type { Db } from "../db/client";
import { hashPassword } from "../auth/passwords";
import type { Scope } from "../auth/scopes";
import { issueApiKey } from "../auth/tokens";
import { createSession } from "../auth/sessions";

/** Factories with unique values: tests build what they need instead of sharing a seed. */
export const unique = (prefix = "x") => `${prefix}-${crypto.randomBytes(5).toString("hex")}`;

let cachedHash: Promise<string> | undefined;
export const TEST_PASSWORD = "correct horse battery";

export async function makeAdmin(db: Db, over: { email?: string; name?: string; appId?: bigint } = {}) {
  cachedHash ??= hashPassword(TEST_PASSWORD);
  const admin = await db.admin.create({
    data: {
      email: over.email ?? `${unique("op")}@example.test`,
      name: over.name ?? unique("Operator"),
      passwordHash: await cachedHash,
    },
  });
  if (over.appId) await db.appAdmin.create({ data: { appId: over.appId, adminId: admin.id } });
  return admin;
}

export async function makeApp(db: Db, over: { name?: string; scopes?: Scope[] } = {}) {
  const app = await db.app.create({ data: { name: over.name ?? unique("App") } });
  const admin = await makeAdmin(db, { appId: app.id });
  await db.app.update({ where: { id: app.id }, data: { defaultAdminId: admin.id } });
  const channel = await db.channel.create({ data: { appId: app.id, name: unique("Channel") } });
  const { token } = await issueApiKey(db, { appId: app.id, scopes: over.scopes, name: "test" });
  return { app, admin, channel, token };
}

export async function makeToken(db: Db, appId: bigint, scopes?: Scope[]) {
  return (await issueApiKey(db, { appId, scopes, name: unique("token") })).token;
}

/** A logged-in operator: the cookie header and CSRF token a browser would send. */
export async function makeSession(db: Db, adminId: bigint) {
  const s = await createSession(db, adminId);
  return { cookie: `relay_session=${s.cookieValue}`, csrf: s.csrfToken };
}

export async function makeUser(
  db: Db,
  appId: bigint,
  over: { userId?: string; name?: string; email?: string } = {},
) {
  return db.user.create({
    data: { appId, userId: over.userId ?? unique("u"), name: over.name ?? null, email: over.email ?? null },
  });
}
