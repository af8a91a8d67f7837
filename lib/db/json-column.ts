import { Prisma } from "./generated/client";

/** A parsed API value as JSON text for a JSONB column: IDs parsed to bigint are written back as numbers. */
export const jsonText = (t: unknown): string =>
  JSON.stringify(t, (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v));

/** The same value for a Prisma Json field; null is SQL NULL. */
export const jsonColumn = (t: unknown) => JSON.parse(jsonText(t)) as Prisma.InputJsonValue;
export const nullableJsonColumn = (v: unknown) => (v === null ? Prisma.DbNull : jsonColumn(v));
