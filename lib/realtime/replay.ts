import type { Db } from "../db/client";
import { channelsOf, sourcesOf } from "./channels";
import { onWire, toMessage, type LogRow, type RelaySocket } from "./log-rows";

/**
 * What keeps subscribe replays from crowding out everything else: a replay sends a page at a time, one page per
 * turn of the event loop for the whole instance (so HTTP requests and live messages get their turns between
 * pages), waits for the socket to have written a page before it reads the next (a slow client holds its own replay
 * back, not the server's memory), and each socket may start only so many long ones (over more than a page of the
 * log) in a window.
 */
export const REPLAY_PAGE = 500;
export const REPLAYS_PER_WINDOW = 5;
export const REPLAY_WINDOW_MS = 10_000;

/** Pages of every replay, in arrival order: each runs alone in its turn, the next one in a later turn. */
export class ReplayTurns {
  private last: Promise<void> = Promise.resolve();

  take(send: () => void): Promise<void> {
    const before = this.last;
    let release = () => {};
    this.last = new Promise((resolve) => (release = resolve));
    return before.then(() => {
      try {
        send();
      } finally {
        setImmediate(release);
      }
    });
  }
}

/** Resolves once the socket's transport has written all it was given (or the socket is gone). */
export async function drained(socket: RelaySocket): Promise<void> {
  while (socket.connected && !socket.conn.transport.writable) {
    const transport = socket.conn.transport;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        transport.off("ready", done);
        resolve();
      };
      // An upgrade swaps the transport and a closing one may never be ready: look again now and then.
      const timer = setTimeout(done, 200);
      transport.once("ready", done);
    });
  }
}

/**
 * Sends a socket the messages of `channels` after `from` up to `upTo`, a page per turn, reading the next page once
 * the socket has written this one. `last` (per channel, the last id the socket got) skips what it already has and
 * follows what it is sent; a socket that disconnects ends the replay.
 */
export async function replayLog(
  db: Db,
  turns: ReplayTurns,
  to: { socket: RelaySocket; last: Map<string, bigint> },
  range: { channels: string[]; from: bigint; upTo: bigint },
): Promise<void> {
  const sources = [...new Set(range.channels.flatMap(sourcesOf))];
  const wanted = new Set(range.channels);
  let cursor = range.from;
  for (;;) {
    const rows = await db.$queryRaw<LogRow[]>`
      SELECT id, user_id AS "userId", channel, type, payload, created FROM event_log
      WHERE channel = ANY(${sources}) AND id > ${cursor} AND id <= ${range.upTo} ORDER BY id LIMIT ${REPLAY_PAGE}`;
    if (!to.socket.connected) return;
    await turns.take(() => {
      for (const row of rows) {
        for (const channel of channelsOf(row)) {
          if (!wanted.has(channel)) continue;
          if (row.id <= (to.last.get(channel) ?? -1n)) continue;
          to.last.set(channel, row.id);
          to.socket.emit("message", onWire(toMessage(row, channel)));
        }
      }
    });
    if (rows.length < REPLAY_PAGE) return;
    cursor = rows[rows.length - 1]!.id;
    await drained(to.socket);
  }
}

/** Whether a socket that started replays at `recent` (times, pruned in place) may start another one now. */
export function mayReplay(recent: number[], now = Date.now()): boolean {
  while (recent.length && now - recent[0]! >= REPLAY_WINDOW_MS) recent.shift();
  if (recent.length >= REPLAYS_PER_WINDOW) return false;
  recent.push(now);
  return true;
}

export const THROTTLED = "Too many subscribes with `after` on this socket: wait a few seconds.";

const MAX_ID = 2n ** 63n - 1n;
export const AFTER_ERROR =
  "`after` must be an event ID: an integer from 0 to 2^63-1 (a number or a string of digits).";

/** `after` of a subscribe: absent (no replay), an event ID, or invalid. Negative numbers replay everything. */
export function eventPosition(after: unknown): bigint | undefined | "invalid" {
  if (after === undefined || after === null) return undefined;
  if (typeof after === "number") return Number.isSafeInteger(after) ? BigInt(Math.max(after, 0)) : "invalid";
  if (typeof after === "string" && /^\d{1,19}$/.test(after)) {
    const n = BigInt(after);
    return n <= MAX_ID ? n : "invalid";
  }
  return "invalid";
}
