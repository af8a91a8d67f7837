/**
 * PostgreSQL's deadlock (40P01) and serialization failure (40001), as the driver raises them, as Prisma reports
 * them (P2034), or as Prisma's driver adapter wraps the driver's error (`meta.driverAdapterError.cause`, with
 * `originalCode`): the database rolled the transaction back whole, so running it again is safe and usually
 * succeeds.
 */
export function isRetryableConflict(err: unknown, depth = 0): boolean {
  if (typeof err !== "object" || err === null || depth > 4) return false;
  const e = err as {
    code?: unknown;
    originalCode?: unknown;
    cause?: unknown;
    meta?: { code?: unknown; driverAdapterError?: { cause?: unknown } };
  };
  for (const code of [e.code, e.originalCode, e.meta?.code])
    if (code === "40P01" || code === "40001" || code === "P2034") return true;
  return (
    isRetryableConflict(e.cause, depth + 1) ||
    isRetryableConflict(e.meta?.driverAdapterError?.cause, depth + 1)
  );
}

/** How many times a transaction is run in all when the database keeps rolling it back on a conflict. */
export const CONFLICT_ATTEMPTS = 3;

/**
 * Runs a whole transaction (`run` begins and commits it) again when the database rolled it back on a deadlock or
 * a serialization failure. Only for transactions whose effects outside the database wait for the commit.
 */
export async function retryingConflicts<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= CONFLICT_ATTEMPTS || !isRetryableConflict(err)) throw err;
    }
  }
}
