/** What the layers between us and PostgreSQL put on an error: the pg driver, Prisma, Prisma's driver adapter. */
export interface LayeredError {
  code?: unknown;
  kind?: unknown;
  message?: unknown;
  originalCode?: unknown;
  cause?: unknown;
  meta?: { code?: unknown; driverAdapterError?: { cause?: unknown } };
}

/**
 * Whether `test` holds for the error or for one it wraps: its `cause`, or the driver's error that Prisma's driver
 * adapter keeps as `meta.driverAdapterError.cause` under a P2010 or a model call's code. A few levels at most.
 */
export function anyLayer(err: unknown, test: (e: LayeredError) => boolean, depth = 0): boolean {
  if (typeof err !== "object" || err === null || depth > 4) return false;
  const e = err as LayeredError;
  return (
    test(e) ||
    anyLayer(e.cause, test, depth + 1) ||
    anyLayer(e.meta?.driverAdapterError?.cause, test, depth + 1)
  );
}
