import type { Runtime } from "../server/runtime";
import { DEMO_EMAIL, DEMO_PASSWORD } from "./fixtures";
import { seedDemo } from "./seed";
import { seedEmailStory } from "./email-story";

/** Seeds the demo workspace on an empty database unless SEED_DEMO=0, and prints how to log in. */
export async function seedOnFirstRun(rt: Runtime, log = console.log): Promise<void> {
  if (!rt.config.seedDemo) return;
  const seeded = await seedDemo(rt.db);
  if (seeded) {
    const admin = await rt.db.admin.findUniqueOrThrow({ where: { email: DEMO_EMAIL }, select: { id: true } });
    await seedEmailStory(rt, seeded.appId, admin.id);
    log(
      [
        "Demo workspace created.",
        `  Log in to the panel as ${seeded.adminEmail} with the password ${seeded.adminPassword}`,
        `  API token (shown only now, keep it safe): ${seeded.token}`,
        "  More tokens: npm run cli -- token:create --app " +
          `${seeded.appId} (stop the server first when it uses the embedded database)`,
      ].join("\n"),
    );
    return;
  }
  const demo = await rt.db.admin.findUnique({ where: { email: DEMO_EMAIL }, select: { id: true } });
  if (demo) log(`Demo login: ${DEMO_EMAIL} (password ${DEMO_PASSWORD}, unless it was changed)`);
}
