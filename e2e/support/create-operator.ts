// Fallback used by e2e/support/operator.ts while `npm run cli -- app:create` does not exist: creates an app and
// its owner directly in DATA_DIR's database (run with tsx, before the server starts). Prints the JSON result.
import { loadConfig } from "../../lib/config/env";
import path from "node:path";
import { openDb, pglitePath } from "../../lib/db/client";
import { lockDataDir } from "../../lib/db/lock";
import { migrate } from "../../lib/db/migrate";
import { createApp } from "../../lib/apps/create-app";

const [name, adminEmail, adminPassword, adminName] = process.argv.slice(2);
if (!name || !adminEmail || !adminPassword) {
  console.error("usage: create-operator.ts <app name> <email> <password> [admin name]");
  process.exit(2);
}
const { databaseUrl } = loadConfig();
const dir = pglitePath(databaseUrl);
const release = databaseUrl.startsWith("pglite:") && dir ? lockDataDir(path.dirname(dir)) : () => undefined;
const handle = await openDb(databaseUrl);
try {
  await migrate({ url: databaseUrl, pglite: handle.pglite });
  const created = await createApp(handle.db, { name, adminEmail, adminPassword, adminName });
  console.log(
    JSON.stringify({
      app: { id: String(created.app.id), name: created.app.name },
      admin: { email: adminEmail },
    }),
  );
} finally {
  await handle.close();
  release();
}
