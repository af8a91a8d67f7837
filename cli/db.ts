import path from "node:path";
import type { Config } from "../lib/config/env";
import { openDb, pglitePath, type Db } from "../lib/db/client";
import { lockDataDir } from "../lib/db/lock";
import { migrate } from "../lib/db/migrate";

/**
 * Opens the database the server would use, brings its schema up to date, runs `work` and closes it. An embedded
 * database is locked first, as the server locks it: two processes writing one PGlite directory corrupt it.
 */
export async function withDatabase<T>(config: Config, work: (db: Db) => Promise<T>): Promise<T> {
  const dir = pglitePath(config.databaseUrl);
  const release = config.databaseUrl.startsWith("pglite:") && dir ? lockDataDir(path.dirname(dir)) : () => {};
  try {
    const handle = await openDb(config.databaseUrl, { poolSize: 2 });
    try {
      await migrate({ url: config.databaseUrl, pglite: handle.pglite });
      return await work(handle.db);
    } finally {
      await handle.close();
    }
  } finally {
    release();
  }
}
