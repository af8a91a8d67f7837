import { sqlOf } from "../db/sql";
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";
import { customPropsJson, type CustomValue, type SystemValue } from "../user-model/prop-values";
import { SYSTEM_PROPS } from "../user-model/system-props";

export type MergeField = "$user_id" | "$email";

/** One CSV row, validated: the merge key, the system props given (by `$` name) and custom props. */
export interface ImportRow {
  line: number;
  key: string;
  system: Record<string, SystemValue>;
  custom: Record<string, CustomValue>;
}

/** The writable system props, each with its column and SQL array type (constants, never input). */
const WRITABLE = Object.entries(SYSTEM_PROPS)
  .filter(([, d]) => !d.readOnly)
  .map(([name, d]) => ({
    name,
    column: d.column,
    cast: d.type === "integer" ? "int[]" : d.type === "datetime" ? "timestamptz[]" : "text[]",
  }));

/** Later rows with the same key win, prop by prop, as if applied one after another. */
function merged(rows: ImportRow[]): ImportRow[] {
  const byKey = new Map<string, ImportRow>();
  for (const r of rows) {
    const prev = byKey.get(r.key);
    byKey.set(
      r.key,
      prev ? { ...r, system: { ...prev.system, ...r.system }, custom: { ...prev.custom, ...r.custom } } : r,
    );
  }
  return [...byKey.values()];
}

function param(v: SystemValue | undefined): string | number | null {
  if (v === undefined || v === null) return null;
  return v instanceof Date ? v.toISOString() : v;
}

/** `unnest(…) AS v(key, <columns>, custom)`: the batch as a relation, every value a bound array parameter. */
function batchRelation(rows: ImportRow[]): Prisma.Sql {
  const arrays = [
    Prisma.sql`${rows.map((r) => r.key)}::text[]`,
    ...WRITABLE.map((c) => Prisma.sql`${rows.map((r) => param(r.system[c.name]))}::${Prisma.raw(c.cast)}`),
    Prisma.sql`${rows.map((r) => customPropsJson(r.custom))}::jsonb[]`,
  ];
  const names = ["key", ...WRITABLE.map((c) => c.column), "custom"].join(", ");
  return Prisma.sql`unnest(${Prisma.join(arrays)}) AS v(${Prisma.raw(names)})`;
}

/**
 * An imported avatar records its source, as the props service does (lib/props/set-props.ts): the panel loads only
 * avatars whose source it trusts.
 */
const AVATAR_SOURCE = `jsonb_build_object('$avatar', jsonb_build_object('type', 'import', 'id', null, 'at',
  to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS')))`;

const assignments = Prisma.raw(
  [
    ...WRITABLE.map((c) => `${c.column} = COALESCE(v.${c.column}, u.${c.column})`),
    "props_custom = u.props_custom || v.custom",
    `props_sources = CASE WHEN v.avatar IS NULL THEN u.props_sources ELSE u.props_sources || ${AVATAR_SOURCE} END`,
    "updated = now()",
  ].join(", "),
);

function insertColumns(withUserId: boolean) {
  const cols = [
    "app_id",
    ...(withUserId ? ["user_id"] : []),
    ...WRITABLE.map((c) => c.column),
    "props_custom",
    "props_sources",
  ];
  const values = [
    ...(withUserId ? ["v.key"] : []),
    ...WRITABLE.map((c) => (c.column === "sessions" ? "COALESCE(v.sessions, 0)" : `v.${c.column}`)),
    "v.custom",
    `CASE WHEN v.avatar IS NULL THEN '{}'::jsonb ELSE ${AVATAR_SOURCE} END`,
  ];
  return { cols: Prisma.raw(cols.join(", ")), values: Prisma.raw(values.join(", ")) };
}

/**
 * Writes one batch in one transaction with a few set-based statements (not a query per row): users matched by the
 * merge field are updated (empty cells leave props as they were, custom props are merged), the others created; the
 * import's tags are added to all of them. Returns how many distinct users were written.
 */
export async function applyBatch(
  db: Db,
  input: { appId: bigint; mergeField: MergeField; rows: ImportRow[]; tags: string[] },
): Promise<number> {
  const rows = merged(input.rows);
  if (!rows.length) return 0;
  const { appId } = input;
  // On the driver (lib/db/sql.ts): through Prisma, each batch's thousand-row parameters were copied several times
  // over, and a 100,000-row import left the process hundreds of MB of garbage to collect.
  return sqlOf(db).transaction(async (tx) => {
    const ids: bigint[] = [];
    if (input.mergeField === "$user_id") {
      const ins = insertColumns(true);
      const created = await tx.$queryRaw<{ id: bigint; user_id: string }[]>(Prisma.sql`
          INSERT INTO users (${ins.cols}) SELECT ${appId}, ${ins.values} FROM ${batchRelation(rows)}
          ON CONFLICT (app_id, user_id) DO NOTHING RETURNING id, user_id`);
      const made = new Set(created.map((c) => c.user_id));
      ids.push(...created.map((c) => c.id));
      const rest = rows.filter((r) => !made.has(r.key));
      if (rest.length) {
        const updated = await tx.$queryRaw<{ id: bigint }[]>(Prisma.sql`
            UPDATE users u SET ${assignments} FROM ${batchRelation(rest)}
            WHERE u.app_id = ${appId} AND u.user_id = v.key RETURNING u.id`);
        ids.push(...updated.map((u) => u.id));
      }
    } else {
      // Several users may share an email; the oldest one is the one updated.
      const found = await tx.$queryRaw<{ id: bigint; email: string }[]>(Prisma.sql`
          SELECT DISTINCT ON (email) id, email FROM users
          WHERE app_id = ${appId} AND email = ANY(${rows.map((r) => r.key)}::text[]) ORDER BY email, id`);
      const idOf = new Map(found.map((f) => [f.email, f.id]));
      const existing = rows.filter((r) => idOf.has(r.key));
      if (existing.length) {
        const updated = await tx.$queryRaw<{ id: bigint }[]>(Prisma.sql`
            UPDATE users u SET ${assignments} FROM ${batchRelation(existing)}
            WHERE u.id = ANY(${existing.map((r) => idOf.get(r.key)!)}::bigint[]) AND u.email = v.key RETURNING u.id`);
        ids.push(...updated.map((u) => u.id));
      }
      const fresh = rows.filter((r) => !idOf.has(r.key));
      if (fresh.length) {
        const ins = insertColumns(false);
        const created = await tx.$queryRaw<{ id: bigint }[]>(Prisma.sql`
            INSERT INTO users (${ins.cols}) SELECT ${appId}, ${ins.values} FROM ${batchRelation(fresh)} RETURNING id`);
        ids.push(...created.map((c) => c.id));
      }
    }
    if (input.tags.length && ids.length) {
      await tx.$executeRaw(Prisma.sql`
          INSERT INTO user_tags (user_id, app_id, tag)
          SELECT i, ${appId}, t FROM unnest(${ids}::bigint[]) AS i CROSS JOIN unnest(${input.tags}::text[]) AS t
          ON CONFLICT (user_id, tag) DO NOTHING`);
    }
    return ids.length;
  });
}
