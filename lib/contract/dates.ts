/**
 * The dates and times the API takes: the years 1 to 9999 (UTC), what both a PostgreSQL timestamp and ISO 8601's
 * four-digit years hold. Year 0 parses in JavaScript but fails in PostgreSQL (a 500), and year 10000 has no
 * canonical text. Browser-safe: no imports.
 */
export const FIRST_YEAR = 1;
export const LAST_YEAR = 9999;
/** The first and last instants within the years, in milliseconds. */
export const MIN_TIME = Date.parse("0001-01-01T00:00:00Z");
export const MAX_TIME = Date.parse("9999-12-31T23:59:59.999Z");
/** The last second of the year 9999, in Unix seconds: the largest timestamp parameter. */
export const LAST_SECOND = Math.floor(MAX_TIME / 1000);

/** Why a value is not a day: the message every day parameter answers with. */
export const DAY_PROBLEM = `must be a day, YYYY-MM-DD, years ${FIRST_YEAR} to ${LAST_YEAR}`;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A calendar day, YYYY-MM-DD, as the instant of its UTC midnight; undefined when it is not a real day (2024-02-30)
 * or falls outside the years.
 */
export function parseDay(s: string): number | undefined {
  if (!DAY.test(s)) return undefined;
  const t = Date.parse(`${s}T00:00:00Z`);
  if (Number.isNaN(t) || t < MIN_TIME || t > MAX_TIME) return undefined;
  // `Date` rolls 2024-02-30 over to March: a day that does not come back as written was not a real one.
  return new Date(t).toISOString().slice(0, 10) === s ? t : undefined;
}
