export interface EventRow {
  id: bigint;
  created: Date;
  props: unknown;
  userId: bigint;
  type: { id: bigint; name: string; score: number; visible: boolean };
}

/** The Event object (the same in both versions). */
export function serializeEvent(e: EventRow) {
  return {
    id: e.id,
    created: Math.floor(e.created.getTime() / 1000),
    type: { id: e.type.id, name: e.type.name, score: e.type.score, visible: e.type.visible },
    user: e.userId,
    props: e.props ?? {},
  };
}
