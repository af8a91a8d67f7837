/**
 * PostgreSQL's deadlock (40P01) and serialization failure (40001), as the driver raises them or as Prisma reports
 * them (P2034): the database rolled the transaction back whole, so running it again is safe and usually succeeds.
 */
export function isRetryableConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return code === "40P01" || code === "40001" || code === "P2034";
}
