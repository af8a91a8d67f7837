import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/**
 * Every embedded database is made here: the migrations need the extensions a PostgreSQL server ships (pg_trgm for
 * search), and PGlite loads an extension only when it is named at creation.
 */
export function createPglite(dataDir?: string, opts: PGliteOptions = {}): Promise<PGlite> {
  return PGlite.create(dataDir, { ...opts, extensions: { pg_trgm, ...opts.extensions } });
}
