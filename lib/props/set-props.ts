import { canAccessApp, type Ctx } from "../auth/context";
import { Prisma } from "../db/generated/client";
import { sqlOf, type Queryable } from "../db/sql";
import { announceIfNewLead } from "../users/lead-events";
import { changeWithEvents, withEvents, type Emit, type LogEvent } from "../eventlog/append";
import { eventOf } from "../contract/socket";
import { parseId } from "../contract/zod";
import {
  isoNoOffset,
  systemProp,
  SYSTEM_PROPS,
  USER_SYSTEM_SQL,
  type UserSystemRow,
} from "../user-model/system-props";
import { lockUser, type UserRef } from "../users/resolve";
import { applyOperations, type IgnoredOperation, type PropsState } from "./operations";
import {
  customPropsJson,
  jsonOfProp,
  parseCustomProps,
  type CustomValue,
  type SystemValue,
} from "../user-model/prop-values";

export interface PropsSource {
  type: string;
  id?: bigint;
}

export interface SetPropsInput {
  user: UserRef;
  operations: unknown[];
  /** `parse_custom_props_type`, default true. */
  parseTypes?: boolean;
  doubleSubscribe?: boolean;
  source?: PropsSource;
}

export interface SetPropsResult {
  id: bigint;
  appId: bigint;
  affected: string[];
  notChanged: string[];
  ignored: IgnoredOperation[];
  noop: IgnoredOperation[];
}

const SOURCED = ["$email", "$phone"];

type PropsRow = UserSystemRow & {
  /** As text: the driver's JSON.parse would round integers beyond 2^53. */
  propsCustom: string;
  emailStatus: string;
  propsSources: unknown;
  isLead: boolean;
};
const PROPS_ROW_SQL = Prisma.sql`${USER_SYSTEM_SQL}, u.props_custom::text AS "propsCustom",
  u.email_status AS "emailStatus", u.props_sources AS "propsSources", u.is_lead AS "isLead"`;

/** `column = value` for each changed column (names are constants: system props' columns and these). */
function assignments(data: Record<string, unknown>): Prisma.Sql {
  const sets = Object.entries(data).map(([column, v]) =>
    column === "props_custom"
      ? Prisma.sql`${Prisma.raw(column)} = ${customPropsJson(v as Record<string, CustomValue>)}::jsonb`
      : column === "props_sources"
        ? Prisma.sql`${Prisma.raw(column)} = ${JSON.stringify(v)}::jsonb`
        : Prisma.sql`${Prisma.raw(column)} = ${v}`,
  );
  return Prisma.join([...sets, Prisma.sql`updated = now()`], ", ");
}

function stateOf(row: PropsRow): PropsState {
  const system: Record<string, SystemValue> = {};
  for (const [name, def] of Object.entries(SYSTEM_PROPS)) system[name] = row[def.field] ?? null;
  return { system, custom: parseCustomProps(row.propsCustom) };
}

/** The changed props as the real-time message shows them (deleted ones as null). */
function changedProps(state: PropsState, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = k.startsWith("$") ? state.system[k] : state.custom[k];
    out[k] = v instanceof Date ? isoNoOffset(v) : jsonOfProp(v ?? null);
  }
  return out;
}

interface Planned {
  result: SetPropsResult;
  /** The columns to write, by name; none: nothing to write. */
  data: Record<string, unknown>;
  /** What others must see of the change, unless the write also made the user a lead (announceIfNewLead). */
  event?: LogEvent;
}

/** The operations applied to the row as read: what to write, what to answer and what to log. */
function plan(row: PropsRow, input: SetPropsInput, id: bigint, appId: bigint): Planned {
  const r = applyOperations(stateOf(row), input.operations, { parseTypes: input.parseTypes ?? true });
  const touched = new Set([...r.affected, ...r.notChanged]);

  const data: Record<string, unknown> = {};
  let customChanged = false;
  for (const key of r.affected) {
    const def = systemProp(key);
    if (def) data[def.column] = r.state.system[key];
    else customChanged = true;
  }
  if (customChanged) data.props_custom = r.state.custom;
  if (input.doubleSubscribe && touched.has("$email") && row.emailStatus === "unsubscribed") {
    data.email_status = "subscribed";
  }
  const { source } = input;
  const sourced = source ? SOURCED.filter((k) => touched.has(k)) : [];
  // Every write of $avatar records who made it: the panel loads only an avatar its site or team set, never a URL
  // a visitor chose (components/panel/user-avatar.ts). A write naming no source is the REST API's.
  const avatarSource = touched.has("$avatar") ? (source ?? { type: "api" }) : undefined;
  if (sourced.length || avatarSource) {
    const sources = { ...(row.propsSources as Record<string, unknown>) };
    const at = isoNoOffset(new Date());
    const stamp = ({ type, id }: PropsSource) => ({
      type,
      // JSON numbers hold IDs exactly up to 2^53; larger ones are kept as strings.
      id: id === undefined ? null : id <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : String(id),
      at,
    });
    if (source) for (const k of sourced) sources[k] = stamp(source);
    if (avatarSource) sources.$avatar = stamp(avatarSource);
    data.props_sources = sources;
  }
  const result = {
    id,
    appId,
    affected: r.affected,
    notChanged: r.notChanged,
    ignored: r.ignored,
    noop: r.noop,
  };
  if (!r.affected.length && !data.email_status) return { result, data };
  const event = eventOf(
    "user_props_changed",
    { appId, userId: id },
    {
      user: id,
      app: appId,
      props: changedProps(r.state, r.affected),
      ...(data.email_status ? { email_status: "subscribed" as const } : {}),
    },
  );
  return { result, data, event };
}

/** `UPDATE users` of the planned columns, `and` the row's further condition. */
const update = (id: bigint, data: Record<string, unknown>, and = Prisma.empty) =>
  Prisma.sql`UPDATE users SET ${assignments(data)} WHERE id = ${id}${and} RETURNING id`;

/**
 * Applies property operations to one user atomically, as if the user's row were locked throughout, so that
 * concurrent `add`s sum exactly. by_user_id creates the user when it does not exist yet. On the driver
 * (lib/db/sql.ts): through Prisma's interactive transaction and query builder, this took four times the CPU of its
 * SQL (bench: props update).
 */
export async function setUserProps(ctx: Ctx, input: SetPropsInput): Promise<SetPropsResult> {
  return (await setPropsUnlocked(ctx, input)) ?? setPropsLocked(ctx, input);
}

/** The row to read without a lock: undefined where setPropsLocked must decide (and tell the errors). */
function unlockedWhere(ctx: Ctx, ref: UserRef): Prisma.Sql | undefined {
  if (!ref.by_user_id) {
    const id = parseId(ref.id);
    return id === undefined ? undefined : Prisma.sql`u.id = ${id}`;
  }
  const appId = ref.app ?? ctx.appId;
  if (appId === undefined || !canAccessApp(ctx.actor, appId)) return undefined;
  return Prisma.sql`u.app_id = ${appId} AND u.user_id = ${ref.id}`;
}

/**
 * The common case in two statements where the locked transaction takes six (BEGIN, lock, read, write, log,
 * COMMIT; each a round trip and a system call that dominated this request's profile): the row read without a
 * lock, then the write and its log rows in one statement, made only if the row is still the version read (`xmin`:
 * any write since makes a new one). A write that lost that race, a user to create or to refuse, and one that is
 * not a lead yet (whom the write may make one, announced with the row as written) go through setPropsLocked.
 */
async function setPropsUnlocked(ctx: Ctx, input: SetPropsInput): Promise<SetPropsResult | undefined> {
  const where = unlockedWhere(ctx, input.user);
  if (!where) return undefined;
  const sql = sqlOf(ctx.db);
  const [row] = await sql.$queryRaw<(PropsRow & { version: string })[]>`
    SELECT ${PROPS_ROW_SQL}, u.xmin::text AS version FROM users u WHERE ${where}`;
  if (!row?.isLead || !canAccessApp(ctx.actor, row.appId)) return undefined;
  const { result, data, event } = plan(row, input, row.id, row.appId);
  if (!Object.keys(data).length) return result;
  const change = update(row.id, data, Prisma.sql` AND xmin = ${row.version}::xid`);
  return (await changeWithEvents(sql, change, event ? [event] : [])) ? result : undefined;
}

/** Operations under the user's row lock, in one transaction with their log rows. */
function setPropsLocked(ctx: Ctx, input: SetPropsInput): Promise<SetPropsResult> {
  return withEvents(sqlOf(ctx.db), (tx, emit) => setUserPropsIn(tx, emit, ctx, input));
}

/** setUserProps inside the caller's transaction (a bot sets what the visitor answered with its reply). */
export async function setUserPropsIn(
  tx: Queryable,
  emit: Emit,
  ctx: Ctx,
  input: SetPropsInput,
): Promise<SetPropsResult> {
  const { id, appId, created, row } = await lockUser<PropsRow>(tx, ctx, input.user, {
    create: input.user.by_user_id,
    columns: PROPS_ROW_SQL,
  });
  const { result, data, event } = plan(row, input, id, appId);
  // A named statement (lib/db/statements.ts) for each set of columns: few sets recur, each planned once.
  if (Object.keys(data).length) await tx.$queryRaw(update(id, data));
  await announceIfNewLead(tx, emit, { id, wasLead: created ? false : row.isLead });
  if (event) emit(event);
  return result;
}
