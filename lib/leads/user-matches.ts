import { Prisma } from "../db/generated/client";
import { compileFilters, type CompileOptions } from "./compile";
import { parseFilters } from "./filters";

/**
 * Whether one user is in an audience written in the leads filter grammar (null: everyone), evaluated as the Leads
 * list evaluates it. Filters that no longer compile (a segment deleted since) select nobody.
 */
export async function userMatches(
  db: CompileOptions["db"],
  input: { appId: bigint; userId: bigint; filters: unknown },
): Promise<boolean> {
  if (input.filters === null || input.filters === undefined) return true;
  try {
    const where = await compileFilters(parseFilters(input.filters, "audience"), { db, appId: input.appId });
    const rows = await db.$queryRaw<{ ok: boolean }[]>(
      Prisma.sql`SELECT (${where}) AS ok FROM users u WHERE u.id = ${input.userId}`,
    );
    return rows[0]?.ok === true;
  } catch {
    return false;
  }
}

/**
 * An audience as a message or bot saves it: null stays null (everyone); anything else must compile for the app, or
 * the save is refused with the field named (`audience.filters.0…`).
 */
export async function checkedAudience(
  db: CompileOptions["db"],
  appId: bigint,
  raw: unknown,
): Promise<unknown> {
  if (raw === null || raw === undefined) return null;
  await compileFilters(parseFilters(raw, "audience"), { db, appId });
  return raw;
}
