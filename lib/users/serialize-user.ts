import { jsonOfCustomProps, propsAsStrings } from "../user-model/prop-values";
import type { UserSwitches, UserView, EventSummaryRow } from "./get-user";
import { serializeNote } from "./notes";
import { effectivePresence } from "../user-model/presence-state";
import { isoNoOffset, systemProps } from "../user-model/system-props";

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** `$event_<type id>_first|_last|_count`, from the per-user summaries. */
export function eventProps(summaries: EventSummaryRow[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of summaries) {
    out[`$event_${s.type.id}_first`] = isoNoOffset(s.first);
    out[`$event_${s.type.id}_last`] = isoNoOffset(s.last);
    out[`$event_${s.type.id}_count`] = s.count;
  }
  return out;
}

export function presenceDetails(row: {
  presence: string;
  lastHeartbeat: Date | null;
  presenceDetails: unknown;
}) {
  const stored = (row.presenceDetails ?? {}) as { page_url?: string | null; page_title?: string | null };
  return {
    presence: effectivePresence(row.presence, row.lastHeartbeat),
    page_url: stored.page_url ?? null,
    page_title: stored.page_title ?? null,
    last_heartbeat: row.lastHeartbeat ? seconds(row.lastHeartbeat) : null,
  };
}

/**
 * The User object of v2: `id, app, user_id, presence` always, `props` unless switched off, every other part only
 * when its switch is on. `asStrings` (convert_props_types=false) turns props and props_custom values into strings.
 */
export function serializeUserV2(v: UserView, sw: UserSwitches, opts: { asStrings?: boolean } = {}) {
  const row = v.row;
  const out: Record<string, unknown> = {
    id: row.id,
    app: row.appId,
    user_id: row.userId ?? "",
    presence: effectivePresence(row.presence, row.lastHeartbeat),
  };
  if (sw.props !== false) out.props = systemProps(row, opts.asStrings);
  if (sw.props_events) out.props_events = eventProps(v.summaries ?? []);
  if (sw.props_custom) {
    const custom = (row.propsCustom ?? {}) as Record<string, unknown>;
    out.props_custom = opts.asStrings ? propsAsStrings(custom) : jsonOfCustomProps(custom);
  }
  if (sw.presence_details) out.presence_details = presenceDetails(row);
  if (sw.events) {
    out.events = (v.summaries ?? []).map((s) => ({
      first: seconds(s.first),
      last: seconds(s.last),
      count: s.count,
      event_type: { id: s.type.id, name: s.type.name, score: s.type.score },
    }));
  }
  if (sw.segments) {
    out.segments = (v.segments ?? []).map((s) => ({
      id: s.id,
      app: s.appId,
      name: s.name,
      filters: s.filters,
    }));
  }
  if (sw.notes) out.notes = (v.notes ?? []).map(serializeNote);
  if (sw.tags) out.tags = v.tags ?? [];
  if (sw.email_status) out.email_status = row.emailStatus;
  if (sw.timezone_offset) out.timezone_offset = row.timezoneOffset;
  if (sw.props_sources) out.props_sources = row.propsSources ?? {};
  return out;
}

/** v1 has the same object without the later switches (tags, email status, time zone, string conversion). */
export function serializeUserV1(v: UserView, sw: UserSwitches) {
  return serializeUserV2(v, {
    ...sw,
    tags: false,
    email_status: false,
    timezone_offset: false,
    props_sources: false,
  });
}
