import type { Db } from "../db/client";
import { getMessengerSettings } from "../messenger/settings";
import { DEMO_APP_NAME, DEMO_EMAIL } from "./fixtures";

/**
 * The demo app's public messenger key, for the /demo page's snippet: the app named Demo that the demo owner
 * belongs to (the workspace lib/demo/seed.ts makes on first run), read as that owner would. Undefined when there
 * is no demo workspace (SEED_DEMO=0, or a database that had data before).
 */
export async function demoMessengerKey(db: Db): Promise<string | undefined> {
  const member = await db.appAdmin.findFirst({
    where: { admin: { email: DEMO_EMAIL }, app: { name: DEMO_APP_NAME } },
    orderBy: { appId: "asc" },
    select: { appId: true, adminId: true },
  });
  if (!member) return undefined;
  const ctx = {
    db,
    actor: { kind: "admin" as const, adminId: member.adminId, sessionId: 0n, appIds: [member.appId] },
    appId: member.appId,
    requestId: "demo-page",
  };
  return (await getMessengerSettings(ctx, { appId: member.appId })).publicKey;
}
