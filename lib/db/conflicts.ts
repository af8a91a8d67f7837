import { anyLayer } from "./error-layers";

/**
 * PostgreSQL's deadlock (40P01) and serialization failure (40001), as the driver raises them, as Prisma reports
 * them (P2034), or as Prisma's driver adapter wraps the driver's error (`meta.driverAdapterError.cause`, with
 * `originalCode`): the database rolled the transaction back whole, so running it again is safe and usually
 * succeeds.
 */
export function isRetryableConflict(err: unknown): boolean {
  return anyLayer(err, (e) =>
    [e.code, e.originalCode, e.meta?.code].some((c) => c === "40P01" || c === "40001" || c === "P2034"),
  );
}

/** How many times a transaction is run in all when the database keeps rolling it back on a conflict. */
export const CONFLICT_ATTEMPTS = 3;

/**
 * Runs a whole transaction (`run` begins and commits it) again when the database rolled it back on a deadlock or
 * a serialization failure. Only for transactions whose effects outside the database wait for the commit.
 *
 * The run again waits a few random milliseconds first: run at once, it could take back the row the survivor was
 * waiting for before the survivor woke up, and deadlock with it a second time (CI saw a victim run three times).
 */
export async function retryingConflicts<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= CONFLICT_ATTEMPTS || !isRetryableConflict(err)) throw err;
    }
    await new Promise((r) => setTimeout(r, attempt * (5 + Math.random() * 15)));
  }
}
