import { Prisma } from "../db/generated/client";
import { assertApp, type Ctx } from "../auth/context";
import type { CatalogProp, PropType } from "../leads/schemas";
import { SYSTEM_PROPS } from "../user-model/system-props";

/** Custom prop names are learned from this many of the app's newest users (a bounded, index-ordered scan). */
export const CATALOG_SAMPLE = 10_000;
/** At most this many custom props are listed (the most used first). */
export const CATALOG_MAX_CUSTOM = 500;

const CANONICAL_DT = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$";

interface Seen {
  key: string;
  type: PropType;
  n: number;
}

/**
 * Every property a filter or a column can name: the fixed system props, the custom props seen among the app's
 * newest users with the type most of them hold (custom props are untyped JSON), and three props per event type.
 */
export async function listPropCatalog(ctx: Ctx, input: { appId: bigint }): Promise<CatalogProp[]> {
  assertApp(ctx, input.appId);
  const system: CatalogProp[] = Object.entries(SYSTEM_PROPS).map(([name, def]) => ({
    name,
    kind: "system",
    type: def.type,
    label: name,
    read_only: !!def.readOnly,
  }));
  const seen = await ctx.db.$queryRaw<Seen[]>(Prisma.sql`
    SELECT kv.key,
      CASE jsonb_typeof(kv.value)
        WHEN 'array' THEN 'list'
        WHEN 'boolean' THEN 'boolean'
        WHEN 'number' THEN CASE WHEN kv.value::text ~ '^-?\\d+$' THEN 'integer' ELSE 'float' END
        ELSE CASE WHEN kv.value #>> '{}' ~ ${CANONICAL_DT} THEN 'datetime' ELSE 'string' END
      END AS type,
      count(*)::int AS n
    FROM (SELECT props_custom FROM users WHERE app_id = ${input.appId} ORDER BY id DESC LIMIT ${CATALOG_SAMPLE}) u,
      jsonb_each(u.props_custom) kv
    GROUP BY 1, 2`);
  const byKey = new Map<string, { type: PropType; n: number; users: number }>();
  for (const s of seen) {
    const cur = byKey.get(s.key);
    if (!cur) byKey.set(s.key, { type: s.type, n: s.n, users: s.n });
    else {
      cur.users += s.n;
      // Integers and floats together read as float; otherwise the type most users hold wins.
      const mixedNumbers =
        (cur.type === "integer" && s.type === "float") || (cur.type === "float" && s.type === "integer");
      if (mixedNumbers) cur.type = "float";
      else if (s.n > cur.n) Object.assign(cur, { type: s.type, n: s.n });
    }
  }
  const custom: CatalogProp[] = [...byKey.entries()]
    .sort((a, b) => b[1].users - a[1].users || a[0].localeCompare(b[0]))
    .slice(0, CATALOG_MAX_CUSTOM)
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([name, v]) => ({
      name,
      kind: "custom",
      type: v.type,
      label: name,
      read_only: false,
      users: v.users,
    }));
  const types = await ctx.db.eventType.findMany({
    where: { appId: input.appId },
    select: { id: true, name: true },
    orderBy: { name: "asc" },
  });
  const events: CatalogProp[] = types.flatMap((t) =>
    (["count", "first", "last"] as const).map((part) => ({
      name: `$event_${t.id}_${part}`,
      kind: "event" as const,
      type: part === "count" ? ("integer" as const) : ("datetime" as const),
      label: `${t.name}: ${part === "count" ? "count" : part === "first" ? "first time" : "last time"}`,
      read_only: true,
    })),
  );
  return [...system, ...custom, ...events];
}
