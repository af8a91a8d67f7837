import { describe, expect } from "vitest";
import type { Server } from "socket.io";
import type { Socket } from "socket.io-client";
import type { TestServer } from "../testing/server";
import { it, type TestApp, type TestSockets } from "../testing/fixture";
import { withEvents } from "../eventlog/append";
import { appChannel, eventOf } from "../contract/socket";
import { REPLAY_PAGE } from "./replay";

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

let s: TestServer;
let a: TestApp;
let sockets: TestSockets;
/** The retained log the replays send: several pages' worth (0.5 MB). */
const LOG = 2000;
const channel = () => appChannel("event", a.app.id);

function writeEvents(from: number, count: number): Promise<void> {
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

async function open() {
  const socket = await sockets.open({ token: a.token });
  const got: Msg[] = [];
  socket.on("message", (m: Msg) => got.push(m));
  return { socket, got };
}

const subscribe = (socket: Socket, after?: number) =>
  socket.timeout(120_000).emitWithAck("subscribe", { channels: [channel()], after }) as Promise<Ack>;

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

it.beforeAll(async ({ server, app, sockets: opened }) => {
  s = server;
  a = app;
  sockets = opened;
  await writeEvents(0, LOG);
});

describe("subscribe replays", () => {
  it("send a page per event-loop turn, leaving the server answering HTTP while many sockets replay the log", async () => {
    const burst = longestBurst(s.server.runtime.io!);
    const clients = await Promise.all(Array.from({ length: 8 }, () => open()));
    const acks = clients.map((c) => subscribe(c.socket, 0));
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

  it("deliver messages written during a replay once, after the replayed ones, in order", async () => {
    const { socket, got } = await open();
    const ack = subscribe(socket, 0);
    await new Promise<void>((resolve) => socket.once("message", () => resolve()));
    await writeEvents(LOG, 5);
    expect((await ack).subscribed).toEqual([channel()]);
    const live = LOG + 5;
    const end = Date.now() + 20_000;
    while (got.length < live && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(got.map((m) => m.message.props.n)).toEqual([...Array(live).keys()]);
    const ids = got.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
  });

  it("are limited per socket when long: past the rate the ack says Throttled and nothing is replayed", async () => {
    const { socket, got } = await open();
    const latest = Number((await s.db.eventLogEntry.findFirstOrThrow({ orderBy: { id: "desc" } })).id);
    const long = latest - REPLAY_PAGE - 10;
    for (let i = 0; i < 5; i++) expect((await subscribe(socket, long)).subscribed).toEqual([channel()]);
    const before = got.length;
    const refused = await subscribe(socket, 0);
    expect(refused).toMatchObject({ subscribed: [], refused: [channel()], error: "Throttled" });
    await new Promise((r) => setTimeout(r, 200));
    expect(got.length).toBe(before);
    // A short catch-up (the panel's, from its last message) and a subscribe without replay still work.
    expect((await subscribe(socket, latest - 1)).subscribed).toEqual([channel()]);
    expect((await subscribe(socket)).subscribed).toEqual([channel()]);
  });
});
