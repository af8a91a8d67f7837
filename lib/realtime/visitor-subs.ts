import type { Db } from "../db/client";
import { messengerRoom } from "../eventlog/append";
import { messengerAppRoom } from "./visitor-status";
import { replayGap } from "../eventlog/retention";
import { shown } from "./channels";
import type { LogRow, RelaySocket } from "./log-rows";
import {
  AFTER_ERROR,
  drained,
  eventPosition,
  mayReplay,
  REPLAY_PAGE,
  THROTTLED,
  type ReplayTurns,
} from "./replay";
import { visitorMessageOf, visitorSources, withUnread, type ConversationMemo } from "./visitor-messages";
import type { VisitorRealtimeMessage } from "../messenger/visitor-realtime-schemas";
import { MESSENGER_CHANNEL, type MessengerEnvelope, type SubscribeAck } from "../contract/socket";

interface Delivery {
  id: bigint;
  msg: VisitorRealtimeMessage;
  time: number;
}

interface VisitorListener {
  socket: RelaySocket;
  /** The last event id delivered (or skipped as seen). */
  last: bigint;
  /** While the subscribe's replay runs, live messages wait here. */
  pending: Delivery[] | undefined;
}

/** One visitor (user) with sockets here: its listeners and what its conversations' summaries are built from. */
interface VisitorEntry {
  listeners: Set<VisitorListener>;
  memo: ConversationMemo;
  /** While a summary's unread count is being read, it and every later message wait their turn here. */
  queue: Promise<void> | undefined;
}

/**
 * The `messenger` subscriptions of visitor sockets: an event-log row names its user, so it reaches that user's
 * sockets through one map lookup, whatever the number of visitors connected (no scan, no room per channel).
 * Each socket gets each message once, in id order, replayed from `after` like the operators' channels.
 */
export class VisitorSubs {
  private users = new Map<string, VisitorEntry>();
  private bySocket = new Map<string, { userId: string; l: VisitorListener }>();
  /** When each socket's recent long replays started (the per-socket replay rate, as the operators' have). */
  private replays = new Map<string, number[]>();

  constructor(
    private readonly db: Db,
    private readonly turns: ReplayTurns,
  ) {}

  fanout(row: LogRow): void {
    if (row.userId === null) return;
    const entry = this.users.get(String(row.userId));
    if (!entry) return;
    const msg = visitorMessageOf(row, entry.memo);
    if (!msg) return;
    const time = row.created.getTime() / 1000;
    if (msg.type !== "messenger_conversation" && !entry.queue) {
      const d = { id: row.id, msg, time };
      for (const l of entry.listeners) deliver(l, d);
      return;
    }
    // Counted at once, delivered in id order: after whatever waits before it.
    const counted = withUnread(this.db, msg);
    const q: Promise<void> = (entry.queue ?? Promise.resolve())
      .then(async () => {
        const d = { id: row.id, msg: await counted, time };
        for (const l of entry.listeners) deliver(l, d);
      })
      // A count the database could not give: that summary is skipped (the frame's next reload has it).
      .catch(() => undefined)
      .finally(() => {
        if (entry.queue === q) entry.queue = undefined;
      });
    entry.queue = q;
  }

  /**
   * A visitor socket's `subscribe`: `messenger` is the one channel it may have (every other name is refused: the
   * app's channels carry every visitor's conversations and the operators' notes); the ack is the operators' one.
   */
  async subscribeAck(
    socket: RelaySocket,
    who: { appId: bigint; userId: bigint },
    channels: unknown,
    after: unknown,
    position: bigint,
  ): Promise<SubscribeAck> {
    const names: unknown[] = Array.isArray(channels) ? channels : [channels];
    const refused = names.filter((n) => n !== MESSENGER_CHANNEL).map(shown);
    const wanted = refused.length < names.length;
    const from = eventPosition(after);
    if (from === "invalid")
      return {
        subscribed: [],
        refused: names.map(shown),
        error: "ValidationError",
        error_message: AFTER_ERROR,
      };
    const at = { position: Number(position) };
    if (!wanted) return { subscribed: [], refused, ...at };
    let recent = this.replays.get(socket.id);
    if (!recent) this.replays.set(socket.id, (recent = []));
    if (from !== undefined && position - from > BigInt(REPLAY_PAGE) && !mayReplay(recent))
      return { subscribed: [], refused: names.map(shown), error: "Throttled", error_message: THROTTLED };
    await this.subscribe(socket, who, position, from);
    const gap = from === undefined ? {} : await replayGap(this.db, from);
    return { subscribed: [MESSENGER_CHANNEL], refused, ...at, ...gap };
  }

  /**
   * Subscribes the visitor's socket at `position` (where the tail is), or from `from` with a replay up to it;
   * registered before any await, so the tail meanwhile fills `pending`.
   */
  async subscribe(
    socket: RelaySocket,
    who: { appId: bigint; userId: bigint },
    position: bigint,
    from: bigint | undefined,
  ): Promise<void> {
    const key = String(who.userId);
    let l = this.bySocket.get(socket.id)?.l;
    if (l && from === undefined) return;
    // Replayed: live messages wait in `pending` from now until the replay has sent what precedes them.
    const replayed = from === undefined ? undefined : { last: from, pending: [] as Delivery[] };
    if (l) Object.assign(l, replayed);
    else {
      l = { socket, last: position, pending: undefined, ...replayed };
      let entry = this.users.get(key);
      if (!entry) this.users.set(key, (entry = { listeners: new Set(), memo: new Map(), queue: undefined }));
      entry.listeners.add(l);
      this.bySocket.set(socket.id, { userId: key, l });
      await socket.join([messengerRoom(who.userId), messengerAppRoom(who.appId)]);
    }
    if (from === undefined) return;
    try {
      await this.replay(l, who, from, position);
    } finally {
      const waiting = l.pending ?? [];
      l.pending = undefined;
      for (const d of waiting) deliver(l, d);
    }
  }

  /** The visitor's messages after `from` up to `upTo`, a page per turn (as lib/realtime/replay.ts replays). */
  private async replay(
    l: VisitorListener,
    who: { appId: bigint; userId: bigint },
    from: bigint,
    upTo: bigint,
  ): Promise<void> {
    const sources = visitorSources(who.appId);
    // Its own summaries: the live memo has moved on past these rows.
    const memo: ConversationMemo = new Map();
    let cursor = from;
    for (;;) {
      const rows = await this.db.$queryRaw<LogRow[]>`
        SELECT id, user_id AS "userId", channel, type, payload, created FROM event_log
        WHERE channel = ANY(${sources}) AND user_id = ${who.userId} AND id > ${cursor} AND id <= ${upTo}
        ORDER BY id LIMIT ${REPLAY_PAGE}`;
      const msgs = await Promise.all(
        rows.map((row) => {
          const m = visitorMessageOf(row, memo);
          return m ? withUnread(this.db, m) : Promise.resolve(undefined);
        }),
      );
      if (!l.socket.connected) return;
      await this.turns.take(() => {
        for (const [i, row] of rows.entries()) {
          const msg = msgs[i];
          if (msg) send(l, { id: row.id, msg, time: row.created.getTime() / 1000 });
          else if (row.id > l.last) l.last = row.id;
        }
      });
      if (rows.length < REPLAY_PAGE) return;
      cursor = rows[rows.length - 1]!.id;
      await drained(l.socket);
    }
  }

  remove(socket: RelaySocket): boolean {
    this.replays.delete(socket.id);
    const found = this.bySocket.get(socket.id);
    if (!found) return false;
    this.bySocket.delete(socket.id);
    const entry = this.users.get(found.userId);
    entry?.listeners.delete(found.l);
    if (entry && !entry.listeners.size) this.users.delete(found.userId);
    void socket.leave(messengerRoom(BigInt(found.userId)));
    return true;
  }
}

function deliver(l: VisitorListener, d: Delivery): void {
  if (l.pending) l.pending.push(d);
  else send(l, d);
}

function send(l: VisitorListener, d: Delivery): void {
  if (d.id <= l.last) return;
  l.last = d.id;
  const m: MessengerEnvelope = { id: Number(d.id), channel: MESSENGER_CHANNEL, ...d.msg, time: d.time };
  l.socket.emit("message", m);
}
