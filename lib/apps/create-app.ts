import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { SCOPES } from "../auth/scopes";
import { issueApiKey } from "../auth/tokens";
import { cleanAdminInput, findOrCreateAdmin, type AdminSummary } from "../admins/create-admin";
import { cleanName } from "../admins/input";

type Tx = Prisma.TransactionClient;

export interface CreateAppInput {
  name: string;
  adminEmail: string;
  adminPassword: string;
  adminName?: string;
}

export interface CreatedApp {
  app: { id: bigint; name: string };
  admin: AdminSummary;
  /** Shown once: only its hash is stored. */
  token: string;
}

export const DEFAULT_CHANNEL = "General";
const TX_OPTIONS = { timeout: 20_000, maxWait: 10_000 };

/**
 * A working app in one go: its owner (an existing admin when the password matches theirs), a default channel
 * and an API key with every scope. All or nothing.
 */
export async function createApp(db: Db, input: CreateAppInput): Promise<CreatedApp> {
  cleanAppInput(input);
  return db.$transaction((tx) => createAppInTx(tx, input), TX_OPTIONS);
}

function cleanAppInput(input: CreateAppInput) {
  return {
    name: cleanName(input.name, "name"),
    owner: cleanAdminInput(
      { email: input.adminEmail, password: input.adminPassword, name: input.adminName },
      { email: "admin_email", password: "admin_password", name: "admin_name" },
    ),
  };
}

/** The same inside the caller's transaction (the demo seed builds on it). */
export async function createAppInTx(tx: Tx, input: CreateAppInput): Promise<CreatedApp> {
  const { name, owner } = cleanAppInput(input);
  const { admin } = await findOrCreateAdmin(tx, owner, { verify: true, field: "admin_password" });
  const app = await tx.app.create({
    data: { name, defaultAdminId: admin.id },
    select: { id: true, name: true },
  });
  await tx.appAdmin.create({ data: { appId: app.id, adminId: admin.id, role: "owner" } });
  await tx.channel.create({ data: { appId: app.id, name: DEFAULT_CHANNEL, type: "manual" } });
  const { token } = await issueApiKey(tx, {
    appId: app.id,
    name: "Created with the app",
    scopes: SCOPES,
    createdById: admin.id,
  });
  return { app, admin, token };
}
