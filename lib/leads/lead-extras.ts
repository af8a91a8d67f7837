import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { parseCustomProps } from "../user-model/prop-values";
import { parseEventProp } from "../user-model/system-props";
import { isoNoOffset } from "../user-model/system-props";

/** At most this many extra props per leads request (the panel's picked columns). */
export const MAX_EXTRA_PROPS = 20;

export interface LeadExtras {
  /** Custom and event prop values per user ID; absent props are omitted. */
  props: Map<bigint, Record<string, unknown>>;
  tags: Map<bigint, string[]>;
}

/**
 * The panel's extra columns for one page of leads: picked custom props (`plan`) and event props
 * (`$event_<type>_count`), and the tags. Three indexed look-ups by the page's user IDs, so the leads statement
 * itself (and its total) stays as the spec defines it.
 */
export async function loadLeadExtras(
  db: Pick<Db, "$queryRaw" | "userEventSummary" | "userTag">,
  userIds: bigint[],
  want: { props: string[]; tags: boolean },
): Promise<LeadExtras> {
  const out: LeadExtras = { props: new Map(), tags: new Map() };
  if (userIds.length === 0) return out;
  const custom = want.props.filter((n) => !n.startsWith("$"));
  const events = want.props.flatMap((n) => {
    const ev = parseEventProp(n);
    return ev ? [{ name: n, ...ev }] : [];
  });
  const put = (id: bigint, name: string, v: unknown) => {
    const o = out.props.get(id) ?? {};
    o[name] = v;
    out.props.set(id, o);
  };
  if (custom.length) {
    // As text: Prisma's JSON.parse would round integers beyond 2^53.
    const rows = await db.$queryRaw<{ id: bigint; json: string }[]>(
      Prisma.sql`SELECT id, props_custom::text AS json FROM users WHERE id = ANY(${userIds}::bigint[])`,
    );
    for (const r of rows) {
      const pc = parseCustomProps(r.json);
      for (const n of custom) if (Object.hasOwn(pc, n)) put(r.id, n, pc[n]);
    }
  }
  if (events.length) {
    const typeIds = [...new Set(events.map((e) => e.typeId))];
    const rows = await db.userEventSummary.findMany({
      where: { userId: { in: userIds }, eventTypeId: { in: typeIds } },
    });
    for (const r of rows) {
      for (const e of events) {
        if (e.typeId !== r.eventTypeId) continue;
        put(
          r.userId,
          e.name,
          e.part === "count" ? r.count : isoNoOffset(e.part === "first" ? r.first : r.last),
        );
      }
    }
  }
  if (want.tags) {
    const rows = await db.userTag.findMany({
      where: { userId: { in: userIds } },
      select: { userId: true, tag: true },
      orderBy: [{ userId: "asc" }, { tag: "asc" }],
    });
    for (const r of rows) out.tags.set(r.userId, [...(out.tags.get(r.userId) ?? []), r.tag]);
  }
  return out;
}
