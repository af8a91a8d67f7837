import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { hashPassword, verifyPassword } from "../auth/passwords";
import { requireApp } from "./require-app";
import { checkPassword, cleanEmail, cleanName, InputError, nameFromEmail } from "./input";
import type { AdminRole } from "./schemas";

type Tx = Prisma.TransactionClient;

export interface AdminInput {
  email: string;
  password: string;
  name?: string;
}

export interface CleanAdminInput {
  email: string;
  password: string;
  name: string;
}

export interface AdminSummary {
  id: bigint;
  email: string;
  name: string;
}

export interface CreatedAdmin {
  admin: AdminSummary;
  /** false when an admin with that email existed and was only added to the app. */
  created: boolean;
}

// Hashing a password takes tens of milliseconds; the default 5 s leaves too little room on a busy machine.
export const TX_OPTIONS = { timeout: 20_000, maxWait: 10_000 };

/** `fields` names the inputs in errors, so that each caller reports its own parameter names. */
export function cleanAdminInput(
  input: AdminInput,
  fields: { email: string; password: string; name: string } = {
    email: "email",
    password: "password",
    name: "name",
  },
): CleanAdminInput {
  const email = cleanEmail(input.email, fields.email);
  return {
    email,
    password: checkPassword(input.password, fields.password),
    name: cleanName(input.name, fields.name, nameFromEmail(email)),
  };
}

/**
 * The admin with this email, created when there is none. An existing admin keeps their name and password; with
 * `verify` the given password must match theirs, so that knowing an email is not enough to act as its owner.
 */
export async function findOrCreateAdmin(
  tx: Tx,
  input: CleanAdminInput,
  opts: { verify: boolean; field?: string },
): Promise<CreatedAdmin> {
  const select = { id: true, email: true, name: true, passwordHash: true } as const;
  const existing = await tx.admin.findUnique({ where: { email: input.email }, select });
  if (existing) {
    if (opts.verify && !(await verifyPassword(input.password, existing.passwordHash))) {
      throw new InputError(
        `An admin with the email ${input.email} already exists and the password given is not theirs.`,
        opts.field ?? "email",
      );
    }
    return { admin: { id: existing.id, email: existing.email, name: existing.name }, created: false };
  }
  const admin = await tx.admin.create({
    data: { email: input.email, name: input.name, passwordHash: await hashPassword(input.password) },
    select: { id: true, email: true, name: true },
  });
  return { admin, created: true };
}

/** Adds an operator to an app inside the caller's transaction; an admin already in the app is refused. */
export async function addAdminToApp(
  tx: Tx,
  appId: bigint,
  input: CleanAdminInput,
  role: AdminRole = "operator",
): Promise<CreatedAdmin> {
  await requireApp(tx, appId);
  const result = await findOrCreateAdmin(tx, input, { verify: false });
  const adminId = result.admin.id;
  const member = await tx.appAdmin.findUnique({ where: { appId_adminId: { appId, adminId } } });
  if (member) throw new InputError(`${input.email} is already an operator of app ${appId}.`, "email");
  await tx.appAdmin.create({ data: { appId, adminId, role } });
  return result;
}

export interface CreateAdminInput extends AdminInput {
  appId: bigint;
  role?: AdminRole;
}

/** Creates an operator of an app, or adds an existing admin (same email) to it. */
export async function createAdmin(db: Db, input: CreateAdminInput): Promise<CreatedAdmin> {
  const clean = cleanAdminInput(input);
  return db.$transaction((tx) => addAdminToApp(tx, input.appId, clean, input.role), TX_OPTIONS);
}
