import type { Serialized } from "../contract/schemas";
import type { UserEvent } from "../users/schemas";

export interface EventRow {
  id: bigint;
  created: Date;
  props: unknown;
  userId: bigint;
  type: { id: bigint; name: string; score: number; visible: boolean };
}

/** An event as SQL reads it, its type joined (`t.id AS type_id, t.name, t.score, t.visible`). */
export interface EventSqlRow {
  id: bigint;
  created: Date;
  props: unknown;
  user_id: bigint;
  type_id: bigint;
  name: string;
  score: number;
  visible: boolean;
}

export function eventFromSql(r: EventSqlRow): EventRow {
  return {
    id: r.id,
    created: r.created,
    props: r.props,
    userId: r.user_id,
    type: { id: r.type_id, name: r.name, score: r.score, visible: r.visible },
  };
}

/** The Event object (the same in both versions). */
export function serializeEvent(e: EventRow): Serialized<UserEvent> {
  return {
    id: e.id,
    created: Math.floor(e.created.getTime() / 1000),
    type: { id: e.type.id, name: e.type.name, score: e.type.score, visible: e.type.visible },
    user: e.userId,
    // Stored as tracked: an object (the endpoint takes params as a record).
    props: (e.props ?? {}) as Record<string, unknown>,
  };
}
