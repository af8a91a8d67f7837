import { describe, expect } from "vitest";
import type { Server } from "socket.io";
import type { Socket } from "socket.io-client";
import type { TestServer } from "../testing/server";
import { it, type TestApp, type TestSockets } from "../testing/fixture";
import { withEvents } from "../eventlog/append";
import { appChannel, eventOf } from "../contract/socket";
import { REPLAY_PAGE } from "./replay";
import { finalPosition } from "../eventlog/final-position";
import { sqlOf } from "../db/sql";
import { until } from "./testing";

interface Msg {
  id: number;
  channel: string;
  message: { props: { n: number } };
}

interface Ack {
  subscribed: string[];
  refused: string[];
  error?: string;
}

/** The retained log the replays send: several pages' worth (0.5 MB). */
const LOG = 2000;
const channel = (a: TestApp) => appChannel("event", a.app.id);

function writeEvents(s: TestServer, a: TestApp, from: number, count: number): Promise<void> {
  return withEvents(s.db, async (_tx, emit) => {
    for (let n = from; n < from + count; n++) {
      // An `event` of the contract's shape, padded in its props.
      const type = { id: 1, name: "replay", score: 0, visible: true };
      emit(
        eventOf(
          "event",
          { appId: a.app.id },
          { id: n, created: 0, type, user: 1, props: { n, pad: "x".repeat(200) } },
        ),
      );
    }
  });
}

async function open(sockets: TestSockets, a: TestApp) {
  const socket = await sockets.open({ token: a.token });
  const got: Msg[] = [];
  socket.on("message", (m: Msg) => got.push(m));
  return { socket, got };
}

const subscribe = (socket: Socket, a: TestApp, after?: number) =>
  socket.timeout(120_000).emitWithAck("subscribe", { channels: [channel(a)], after }) as Promise<Ack>;

/** The most packets the server wrote to its sockets in one stretch, without the event loop taking a turn. */
function longestBurst(io: Server): () => number {
  let burst = 0;
  let longest = 0;
  const onPacket = () => {
    if (burst++ > 0) return;
    setImmediate(() => {
      longest = Math.max(longest, burst);
      burst = 0;
    });
  };
  io.on("connection", (socket) => socket.conn.on("packetCreate", onPacket));
  return () => Math.max(longest, burst);
}

// The log every test replays, written once, and fanned out before any test subscribes: rows the hub has yet to
// see would reach the sockets live, a page to all of them in one turn, rather than replayed.
it.beforeAll(async ({ server, app }) => {
  await writeEvents(server, app, 0, LOG);
  const written = await finalPosition(sqlOf(server.db));
  await until(() => server.server.runtime.eventPosition!() >= written, "the hub to reach the log's end");
});

describe("subscribe replays", () => {
  it("send a page per event-loop turn, leaving the server answering HTTP while many sockets replay the log", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const burst = longestBurst(s.server.runtime.io!);
    const clients = await Promise.all(Array.from({ length: 8 }, () => open(sockets, a)));
    const acks = clients.map((c) => subscribe(c.socket, a, 0));
    let replayed = false;
    void Promise.all(acks).then(() => (replayed = true));
    // Once the replays are under way, a ping must not wait for them all to end.
    await new Promise<void>((resolve) => clients[0]!.socket.once("message", () => resolve()));
    const ping = await s.call("/api/ping");
    expect(ping.status).toBe(200);
    expect(replayed).toBe(false);
    const sent = clients.reduce((n, c) => n + c.got.length, 0);
    expect(sent).toBeLessThan(clients.length * LOG);

    await Promise.all(acks);
    // A page at a time, whatever the number of sockets (a few acks may share a page's turn).
    expect(burst()).toBeLessThanOrEqual(REPLAY_PAGE + clients.length);
    for (const c of clients) expect(c.got.map((m) => m.message.props.n)).toEqual([...Array(LOG).keys()]);
  });

  it("deliver messages written during a replay once, after the replayed ones, in order", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const { socket, got } = await open(sockets, a);
    const ack = subscribe(socket, a, 0);
    await new Promise<void>((resolve) => socket.once("message", () => resolve()));
    await writeEvents(s, a, LOG, 5);
    expect((await ack).subscribed).toEqual([channel(a)]);
    const live = LOG + 5;
    const end = Date.now() + 20_000;
    while (got.length < live && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(got.map((m) => m.message.props.n)).toEqual([...Array(live).keys()]);
    const ids = got.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
  });

  it("are limited per socket when long: past the rate the ack says Throttled and nothing is replayed", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const { socket, got } = await open(sockets, a);
    const latest = Number((await s.db.eventLogEntry.findFirstOrThrow({ orderBy: { id: "desc" } })).id);
    const long = latest - REPLAY_PAGE - 10;
    for (let i = 0; i < 5; i++) expect((await subscribe(socket, a, long)).subscribed).toEqual([channel(a)]);
    const before = got.length;
    const refused = await subscribe(socket, a, 0);
    expect(refused).toMatchObject({ subscribed: [], refused: [channel(a)], error: "Throttled" });
    // An event written now reaches the socket live, after anything a replay would have sent it (a live message
    // waits for the replay of its channel): once it is here, nothing came before it.
    const mark = LOG + 5;
    await writeEvents(s, a, mark, 1);
    await until(() => got.some((m) => m.message.props.n === mark), "the event written after the refusal");
    expect(got.length).toBe(before + 1);
    expect(got[before]!.message.props.n).toBe(mark);
    // A short catch-up (the panel's, from its last message) and a subscribe without replay still work.
    expect((await subscribe(socket, a, latest - 1)).subscribed).toEqual([channel(a)]);
    expect((await subscribe(socket, a)).subscribed).toEqual([channel(a)]);
  });
});
