import pg from "pg";
import { errorLine, type Db, type DbKind } from "../db/client";
import { sqlOf } from "../db/sql";
import { NOTIFY_CHANNEL, TAIL_POLL_MS } from "../eventlog/keys";
import { finalPosition } from "../eventlog/final-position";
import { INTERNAL_CHANNEL } from "../eventlog/internal";
import { applyLoggedRevocation, applyRecentRevocations } from "../auth/revocations";
import { allowed, channelsOf, MAX_CHANNELS_PER_SOCKET, shown } from "./channels";
import type { Actor } from "../auth/context";
import { replayGap } from "../eventlog/retention";
import { onWire, toMessage, type LogRow, type Message, type RelayServer, type RelaySocket } from "./log-rows";
import { MESSENGER_CHANNEL, type SubscribeAck } from "../contract/socket";
import { VisitorSubs } from "./visitor-subs";
import { announceOperators } from "./visitor-status";
import {
  AFTER_ERROR,
  eventPosition,
  mayReplay,
  REPLAY_PAGE,
  replayLog,
  ReplayTurns,
  THROTTLED,
} from "./replay";

interface Listener {
  socket: RelaySocket;
  /** Per channel, the last id delivered (or skipped as already seen). */
  last: Map<string, bigint>;
  /** Channels being replayed: live messages wait here until the replay is done. */
  pending: Map<string, Message[]>;
  /** When its recent replays started (the per-socket replay rate). */
  replays: number[];
}

const BATCH = 1000;

/**
 * Delivers the event log to this instance's sockets. Every instance tails the log by id, up to where every id is
 * final (finalPosition: writers draw ids under a lock of their own, see lib/eventlog/append.ts, so ids may commit out of order
 * and the tail waits for the writers in flight), so nothing committed is missed whatever happens to Redis or to the
 * instance that wrote it; each socket gets each message of each channel once, in id order, replayed from `after`
 * on subscribe.
 */
export class Hub {
  private position = 0n;
  private subs = new Map<string, Set<Listener>>();
  private listeners = new Map<string, Listener>();
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private listenClient: pg.Client | undefined;
  private stopped = false;
  private failing = false;
  private io: RelayServer | undefined;
  private turns = new ReplayTurns();
  /** Visitors' `messenger` subscriptions, found by the row's user. */
  readonly visitors: VisitorSubs;

  constructor(
    private readonly db: Db,
    private readonly kind: DbKind,
    private readonly url: string,
  ) {
    this.visitors = new VisitorSubs(db, this.turns);
  }

  async start(): Promise<void> {
    this.position = await finalPosition(sqlOf(this.db));
    await applyRecentRevocations(sqlOf(this.db), this.position);
    this.timer = setInterval(() => this.wake(), TAIL_POLL_MS);
    this.timer.unref();
    if (this.kind === "postgres") void this.listen();
  }

  /** Other instances' commits arrive as NOTIFYs; a lost connection is retried and the poll covers the gap. */
  private async listen(): Promise<void> {
    while (!this.stopped) {
      const client = new pg.Client({ connectionString: this.url });
      try {
        // Heard for the client's whole life: a restart can emit more than one error, and an unheard one would
        // reach the process as an uncaughtException.
        const lost = new Promise<void>((resolve) => {
          client.on("error", () => resolve());
          client.once("end", () => resolve());
        });
        await client.connect();
        this.listenClient = client;
        client.on("notification", () => this.wake());
        await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
        await lost;
      } catch {
        // retried below
      }
      await client.end().catch(() => undefined);
      if (!this.stopped) await new Promise((r) => setTimeout(r, 1000));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.listenClient?.end().catch(() => undefined);
    await this.running;
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.tail()
      .then(() => void (this.failing = false))
      .catch((err: unknown) => {
        // Retried by the next wake (the poll): one line per outage, not one a second.
        if (!this.failing) console.error("event log tail failed, retrying:", errorLine(err));
        this.failing = true;
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Delivers every row up to the final position, in ID order. On the driver itself: it runs after every commit. */
  private async tail(): Promise<void> {
    const db = sqlOf(this.db);
    const upTo = await finalPosition(db);
    for (;;) {
      const rows = await db.$queryRaw<LogRow[]>`
        SELECT id, user_id AS "userId", channel, type, payload, created FROM event_log
        WHERE id > ${this.position} AND id <= ${upTo} ORDER BY id LIMIT ${BATCH}`;
      for (const row of rows) this.fanout(row);
      if (rows.length === BATCH) {
        this.position = rows[rows.length - 1]!.id;
        continue;
      }
      // IDs up to upTo without a row belong to rolled-back writes: none will appear.
      if (upTo > this.position) this.position = upTo;
      return;
    }
  }

  private fanout(row: LogRow): void {
    // The instances' own rows (access revoked elsewhere): applied here, never sent.
    if (row.channel === INTERNAL_CHANNEL) return applyLoggedRevocation(row.type, row.payload);
    announceOperators(this.db, this.io, row);
    this.visitors.fanout(row);
    for (const channel of channelsOf(row)) {
      const set = this.subs.get(channel);
      if (!set?.size) continue;
      const msg = toMessage(row, channel);
      // One broadcast to every socket that is live on this channel: the packet is encoded once, not per socket.
      const live: string[] = [];
      for (const l of set) {
        if (l.pending.has(channel)) l.pending.get(channel)!.push(msg);
        else if (msg.id > (l.last.get(channel) ?? -1n)) {
          l.last.set(channel, msg.id);
          live.push(l.socket.id);
        }
      }
      if (live.length && this.io) this.io.local.to(live).emit("message", onWire(msg));
    }
  }

  /** Where the tail is: every event up to it is final and has been fanned out. */
  current(): bigint {
    return this.position;
  }

  attach(io: RelayServer): void {
    this.io = io;
  }

  private deliver(l: Listener, msg: Message): void {
    const waiting = l.pending.get(msg.channel);
    if (waiting) {
      waiting.push(msg);
      return;
    }
    if (msg.id <= (l.last.get(msg.channel) ?? -1n)) return;
    l.last.set(msg.channel, msg.id);
    l.socket.emit("message", onWire(msg));
  }

  /**
   * Subscribes a socket; with `after`, first replays every message after that id on those channels, and says in
   * the ack (`gap`) when retention has purged some of them.
   */
  async subscribe(
    socket: RelaySocket,
    actor: Actor,
    channels: unknown,
    after: unknown,
  ): Promise<SubscribeAck> {
    if (actor.kind === "visitor")
      return this.visitors.subscribeAck(socket, actor, channels, after, this.position);
    const from = eventPosition(after);
    if (from === "invalid") {
      // Refused whole: replaying from a position that is not an event ID would silently skip messages.
      const names = (Array.isArray(channels) ? channels : [channels]).map(shown);
      return { subscribed: [], refused: names, error: "ValidationError", error_message: AFTER_ERROR };
    }
    const names: unknown[] = Array.isArray(channels) ? channels : [channels];
    const l = this.listeners.get(socket.id) ?? { socket, last: new Map(), pending: new Map(), replays: [] };
    this.listeners.set(socket.id, l);
    // Only replays longer than a page count: the panel's catch-ups (from its last message) stay free.
    const long = from !== undefined && this.position - from > BigInt(REPLAY_PAGE);
    if (long && names.some((n) => allowed(actor, n)) && !mayReplay(l.replays)) {
      // Refused whole, as an invalid `after` is: subscribed without the replay, it would silently miss messages.
      return { subscribed: [], refused: names.map(shown), error: "Throttled", error_message: THROTTLED };
    }
    const subscribed: string[] = [];
    const refused: string[] = [];
    // Every new channel starts at one position, registered before any await: a tail that runs meanwhile delivers
    // each of them everything after it. The client resumes from it (`position`) if it loses the connection.
    const position = this.position;
    const joins: Promise<void>[] = [];
    for (const name of names) {
      if (!allowed(actor, name) || (l.last.size >= MAX_CHANNELS_PER_SOCKET && !l.last.has(String(name)))) {
        refused.push(shown(name));
        continue;
      }
      const channel = String(name);
      if (from !== undefined) {
        // Replayed: live messages wait in `pending` from now until the replay has sent what precedes them.
        l.pending.set(channel, []);
        l.last.set(channel, from);
      }
      if (!this.subs.get(channel)?.has(l)) {
        if (from === undefined) l.last.set(channel, position);
        let set = this.subs.get(channel);
        if (!set) this.subs.set(channel, (set = new Set()));
        set.add(l);
        joins.push(Promise.resolve(socket.join(channel)));
      }
      subscribed.push(channel);
    }
    await Promise.all(joins);
    const at = { position: Number(position) };
    if (from === undefined || !subscribed.length) return { subscribed, refused, ...at };
    await this.replay(l, subscribed, from);
    // Read after the replay: a purge that took rows before the replay could read them has raised the mark by now.
    return { subscribed, refused, ...at, ...(await replayGap(this.db, from)) };
  }

  /** Sends the channels' messages after `from` (their `pending` and `last` already set by subscribe). */
  private async replay(l: Listener, channels: string[], from: bigint): Promise<void> {
    try {
      // Up to what the tail has delivered, where every ID is final; later rows reach `pending` through the tail.
      await replayLog(this.db, this.turns, l, { channels, from, upTo: this.position });
    } finally {
      for (const c of channels) {
        const waiting = l.pending.get(c) ?? [];
        l.pending.delete(c);
        for (const msg of waiting) this.deliver(l, msg);
      }
    }
  }

  unsubscribe(socket: RelaySocket, channels: unknown): string[] {
    const l = this.listeners.get(socket.id);
    const done: string[] = [];
    if (Array.isArray(channels) && channels.includes(MESSENGER_CHANNEL) && this.visitors.remove(socket))
      done.push(MESSENGER_CHANNEL);
    for (const name of Array.isArray(channels) ? channels : [channels]) {
      const channel = String(name);
      if (!l?.last.delete(channel)) continue;
      this.subs.get(channel)?.delete(l);
      void socket.leave(channel);
      done.push(channel);
    }
    return done;
  }

  remove(socket: RelaySocket): void {
    this.visitors.remove(socket);
    const l = this.listeners.get(socket.id);
    if (!l) return;
    for (const channel of l.last.keys()) this.subs.get(channel)?.delete(l);
    this.listeners.delete(socket.id);
  }
}
