import type { Runtime } from "../server/runtime";

/** Seeds the demo workspace on an empty database unless SEED_DEMO=0, and prints how to log in. */
export async function seedOnFirstRun(rt: Runtime): Promise<void> {
  if (!rt.config.seedDemo) return;
  // Filled in by the demo seed (lib/demo/seed.ts).
}
