import { Prisma } from "../db/generated/client";
import { csvLine } from "../domain/csv";
import { assertApp, type Ctx } from "../auth/context";
import { SYSTEM_PROPS, systemProps } from "../user-model/system-props";
import { compileFilters } from "./compile";
import { parseFilters } from "./filters";
import { loadLeadExtras } from "./lead-extras";

/** An export holds at most this many leads (a bigger audience is narrowed by filters, or exported in parts). */
export const EXPORT_MAX_ROWS = 100_000;
/** Rows read per statement: memory stays bounded by one batch whatever the audience. */
export const EXPORT_BATCH = 1_000;

const SYSTEM_COLUMNS = Object.keys(SYSTEM_PROPS);

interface Row {
  id: bigint;
}

/**
 * The leads matching `filters` as a CSV stream: header `id`, the system props by `$` name (so the file can be
 * imported back), the extra custom/event props asked for, and `tags`. Rows go in ID order, read in keyset batches
 * as the client consumes them, never all at once; at most EXPORT_MAX_ROWS.
 */
export async function exportLeadsCsv(
  ctx: Ctx,
  input: { appId: bigint; filters?: unknown; props?: string[]; maxRows?: number },
): Promise<ReadableStream<Uint8Array>> {
  assertApp(ctx, input.appId);
  // Filters are checked before the first byte, so a bad filter is an error envelope, not a broken file.
  const tree =
    input.filters === undefined || input.filters === null ? undefined : parseFilters(input.filters);
  const filters = tree
    ? await compileFilters(tree, { db: ctx.db, appId: input.appId, leadsOnly: true })
    : Prisma.sql`TRUE`;
  const extra = (input.props ?? []).filter((n) => !SYSTEM_COLUMNS.includes(n));
  const max = input.maxRows ?? EXPORT_MAX_ROWS;
  const db = ctx.db;
  const enc = new TextEncoder();
  let last = 0n;
  let sent = 0;
  let headerDone = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!headerDone) {
          headerDone = true;
          controller.enqueue(enc.encode(csvLine(["id", ...SYSTEM_COLUMNS, ...extra, "tags"])));
          return;
        }
        const take = Math.min(EXPORT_BATCH, max - sent);
        if (take <= 0) return controller.close();
        const ids = await db.$queryRaw<Row[]>(Prisma.sql`
          SELECT u.id FROM users u
          WHERE u.app_id = ${input.appId} AND u.is_lead AND ${filters} AND u.id > ${last}
          ORDER BY u.id LIMIT ${take}`);
        if (ids.length === 0) return controller.close();
        const idList = ids.map((r) => r.id);
        const [users, extras] = await Promise.all([
          db.user.findMany({ where: { id: { in: idList } }, orderBy: { id: "asc" } }),
          loadLeadExtras(db, idList, { props: extra, tags: true }),
        ]);
        let chunk = "";
        for (const u of users) {
          const sys = systemProps(u);
          const more = extras.props.get(u.id) ?? {};
          chunk += csvLine([
            u.id,
            ...SYSTEM_COLUMNS.map((c) => sys[c]),
            ...extra.map((c) => more[c]),
            extras.tags.get(u.id) ?? [],
          ]);
        }
        controller.enqueue(enc.encode(chunk));
        sent += ids.length;
        last = idList[idList.length - 1]!;
        if (ids.length < take || sent >= max) controller.close();
      } catch (err) {
        console.error(`[${ctx.requestId}] leads export failed:`, err);
        controller.error(err);
      }
    },
  });
}
