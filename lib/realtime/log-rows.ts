/** A row of the event log as the hub reads it (the tail and the replays). */
export interface LogRow {
  id: bigint;
  userId: bigint | null;
  channel: string;
  payload: unknown;
  created: Date;
}

/** What a socket receives for one of its channels (the id becomes a number on the wire). */
export interface Message {
  id: bigint;
  channel: string;
  message: unknown;
  time: number;
}

export function toMessage(row: LogRow, channel: string): Message {
  return { id: row.id, channel, message: row.payload, time: row.created.getTime() / 1000 };
}
