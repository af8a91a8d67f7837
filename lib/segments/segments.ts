import { Prisma } from "../db/generated/client";
import { invalid, lookupFailed } from "../domain/errors";
import { assertApp, type Ctx } from "../auth/context";
import { compileFilters } from "../leads/compile";
import { parseFilters, segmentRefs, type Group } from "../leads/filters";

export interface SegmentRow {
  id: bigint;
  appId: bigint;
  name: string;
  filters: unknown;
  created: Date;
  updated: Date;
}

const select = { id: true, appId: true, name: true, filters: true, created: true, updated: true } as const;

export function serializeSegment(s: SegmentRow) {
  return {
    id: s.id,
    app: s.appId,
    name: s.name,
    filters: s.filters,
    created: Math.floor(s.created.getTime() / 1000),
  };
}

export async function listSegments(ctx: Ctx, input: { appId: bigint }): Promise<SegmentRow[]> {
  assertApp(ctx, input.appId);
  return ctx.db.segment.findMany({ where: { appId: input.appId }, select, orderBy: { id: "asc" } });
}

const missing = (id: bigint) => lookupFailed(`Segment ${id} does not exist in this app.`);

export async function getSegment(ctx: Ctx, input: { appId: bigint; segmentId: bigint }): Promise<SegmentRow> {
  assertApp(ctx, input.appId);
  const s = await ctx.db.segment.findFirst({ where: { id: input.segmentId, appId: input.appId }, select });
  if (!s) throw missing(input.segmentId);
  return s;
}

/** Segment references by name are stored as IDs, so that renaming a segment never breaks another. */
function referencesByName(raw: unknown, ids: Map<string, bigint>): unknown {
  if (Array.isArray(raw)) return raw.map((x) => referencesByName(x, ids));
  if (typeof raw !== "object" || raw === null) return raw;
  const o = raw as Record<string, unknown>;
  if (o.property_name === "$segment" && typeof o.value === "object" && o.value !== null) {
    const v = (o.value as { value?: unknown }).value;
    const id = typeof v === "string" ? ids.get(v.trim()) : undefined;
    return id === undefined ? o : { ...o, value: { value: Number(id) } };
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, referencesByName(v, ids)]));
}

async function checkedFilters(ctx: Ctx, appId: bigint, raw: unknown, self?: bigint): Promise<unknown> {
  const tree: Group = parseFilters(raw, "filters");
  await compileFilters(tree, { db: ctx.db, appId, stack: self === undefined ? [] : [self] });
  const names = [
    ...new Set(
      segmentRefs(tree).flatMap((c) => (c.value.kind === "segment" && c.value.name ? [c.value.name] : [])),
    ),
  ];
  const found = names.length
    ? await ctx.db.segment.findMany({
        where: { appId, name: { in: names } },
        select: { id: true, name: true },
        orderBy: { id: "desc" },
      })
    : [];
  // The oldest segment of a name wins, as in compileFilters.
  const ids = new Map(found.map((s) => [s.name, s.id]));
  return referencesByName(raw, ids);
}

async function assertNameFree(ctx: Ctx, appId: bigint, name: string, self?: bigint) {
  const other = await ctx.db.segment.findFirst({
    where: { appId, name, ...(self ? { NOT: { id: self } } : {}) },
  });
  if (other) throw invalid({ name: `a segment named "${name}" exists already (${other.id})` });
}

export async function createSegment(
  ctx: Ctx,
  input: { appId: bigint; name: string; filters: unknown },
): Promise<SegmentRow> {
  assertApp(ctx, input.appId);
  await assertNameFree(ctx, input.appId, input.name);
  const filters = await checkedFilters(ctx, input.appId, input.filters);
  return ctx.db.segment.create({
    data: { appId: input.appId, name: input.name, filters: filters as Prisma.InputJsonValue },
    select,
  });
}

export async function updateSegment(
  ctx: Ctx,
  input: { appId: bigint; segmentId: bigint; name?: string; filters?: unknown },
): Promise<SegmentRow> {
  const seg = await getSegment(ctx, input);
  const data: Prisma.SegmentUpdateInput = {};
  if (input.name !== undefined && input.name !== seg.name) {
    await assertNameFree(ctx, input.appId, input.name, seg.id);
    data.name = input.name;
  }
  if (input.filters !== undefined) {
    data.filters = (await checkedFilters(ctx, input.appId, input.filters, seg.id)) as Prisma.InputJsonValue;
  }
  // A concurrent delete leaves nothing to update: the same LookupError as a segment that never was.
  const [row] = await ctx.db.segment.updateManyAndReturn({
    where: { id: seg.id, appId: seg.appId },
    data,
    select,
  });
  if (!row) throw missing(input.segmentId);
  return row;
}

/** Refused while another segment refers to this one, which would otherwise stop matching silently. */
export async function deleteSegment(ctx: Ctx, input: { appId: bigint; segmentId: bigint }): Promise<void> {
  const seg = await getSegment(ctx, input);
  const others = await ctx.db.segment.findMany({
    where: { appId: input.appId, NOT: { id: seg.id } },
    select: { id: true, filters: true },
  });
  const users = others.filter((o) => {
    try {
      return segmentRefs(parseFilters(o.filters)).some(
        (c) => c.value.kind === "segment" && (c.value.id === seg.id || c.value.name === seg.name),
      );
    } catch {
      return false;
    }
  });
  if (users.length) {
    throw invalid({
      segment_id: `segment ${seg.id} is used by segment(s) ${users.map((u) => u.id).join(", ")}; remove those references first`,
    });
  }
  // Two concurrent deletes both pass the checks above; the one that finds nothing left loses.
  const gone = await ctx.db.segment.deleteMany({ where: { id: seg.id, appId: seg.appId } });
  if (gone.count === 0) throw missing(input.segmentId);
}

/** The app's segments that contain the user: every segment's filters evaluated in one query. */
export async function segmentsOfUser(ctx: Ctx, user: { id: bigint; appId: bigint }): Promise<SegmentRow[]> {
  const all = await ctx.db.segment.findMany({ where: { appId: user.appId }, select, orderBy: { id: "asc" } });
  const checks: { seg: SegmentRow; sql: Prisma.Sql }[] = [];
  for (const seg of all) {
    try {
      checks.push({
        seg,
        sql: await compileFilters(parseFilters(seg.filters), { db: ctx.db, appId: user.appId }),
      });
    } catch {
      // A segment whose filters no longer compile contains nobody; it does not hide the others.
    }
  }
  if (!checks.length) return [];
  const cols = Prisma.join(checks.map((c, i) => Prisma.sql`(${c.sql}) AS ${Prisma.raw(`s${i}`)}`));
  const rows = await ctx.db.$queryRaw<Record<string, boolean>[]>(
    Prisma.sql`SELECT ${cols} FROM users u WHERE u.id = ${user.id}`,
  );
  const row = rows[0] ?? {};
  return checks.filter((_c, i) => row[`s${i}`] === true).map((c) => c.seg);
}
