import type { Ctx } from "../auth/context";
import { announceIfNewLead } from "../users/lead-events";
import { withEvents } from "../eventlog/append";
import { isoNoOffset, systemProp, SYSTEM_PROPS, userSystemSelect } from "../user-model/system-props";
import { lockUser, type UserRef } from "../users/resolve";
import { applyOperations, type IgnoredOperation, type PropsState } from "./operations";
import type { CustomValue, SystemValue } from "../user-model/prop-values";

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

export function stateOf(row: Record<string, unknown> & { propsCustom: unknown }): PropsState {
  const system: Record<string, SystemValue> = {};
  for (const [name, def] of Object.entries(SYSTEM_PROPS))
    system[name] = (row[def.field] as SystemValue) ?? null;
  const custom =
    row.propsCustom && typeof row.propsCustom === "object" && !Array.isArray(row.propsCustom)
      ? (row.propsCustom as Record<string, CustomValue>)
      : {};
  return { system, custom };
}

/** The changed props as the real-time message shows them (deleted ones as null). */
function changedProps(state: PropsState, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = k.startsWith("$") ? state.system[k] : state.custom[k];
    out[k] = v instanceof Date ? isoNoOffset(v) : (v ?? null);
  }
  return out;
}

/**
 * Applies property operations to one user in one transaction, with the user's row locked so that concurrent `add`s
 * sum exactly. by_user_id creates the user when it does not exist yet.
 */
export async function setUserProps(ctx: Ctx, input: SetPropsInput): Promise<SetPropsResult> {
  return withEvents(ctx.db, async (tx, emit) => {
    const { id, appId, created } = await lockUser(tx, ctx, input.user, { create: input.user.by_user_id });
    const row = await tx.user.findUniqueOrThrow({
      where: { id },
      select: { ...userSystemSelect, propsCustom: true, emailStatus: true, propsSources: true, isLead: true },
    });
    const r = applyOperations(stateOf(row), input.operations, { parseTypes: input.parseTypes ?? true });
    const touched = new Set([...r.affected, ...r.notChanged]);

    const data: Record<string, unknown> = {};
    let customChanged = false;
    for (const key of r.affected) {
      const def = systemProp(key);
      if (def) data[def.field] = r.state.system[key];
      else customChanged = true;
    }
    if (customChanged) data.propsCustom = r.state.custom;
    if (input.doubleSubscribe && touched.has("$email") && row.emailStatus === "unsubscribed") {
      data.emailStatus = "subscribed";
    }
    const sourced = SOURCED.filter((k) => touched.has(k));
    if (input.source && sourced.length) {
      const sources = { ...(row.propsSources as Record<string, unknown>) };
      const at = isoNoOffset(new Date());
      const sid = input.source.id;
      // JSON numbers hold IDs exactly up to 2^53; larger ones are kept as strings.
      const idJson =
        sid === undefined ? null : sid <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(sid) : String(sid);
      for (const k of sourced) sources[k] = { type: input.source.type, id: idJson, at };
      data.propsSources = sources;
    }
    if (Object.keys(data).length) await tx.user.update({ where: { id }, data });
    await announceIfNewLead(tx, emit, { id, wasLead: created ? false : row.isLead });
    if (r.affected.length || data.emailStatus) {
      emit({
        appId,
        channel: `user_props_changed.${appId}`,
        userId: id,
        type: "user_props_changed",
        payload: {
          user: id,
          app: appId,
          props: changedProps(r.state, r.affected),
          ...(data.emailStatus ? { email_status: data.emailStatus } : {}),
        },
      });
    }
    return { id, appId, affected: r.affected, notChanged: r.notChanged, ignored: r.ignored, noop: r.noop };
  });
}
