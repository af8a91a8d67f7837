import { describe, expect } from "vitest";
import type { Socket } from "socket.io-client";
import type { TestServer } from "../testing/server";
import { it, type TestApp, type TestSockets } from "../testing/fixture";
import { disconnectVisitor } from "../auth/disconnect";
import { watchDisconnect } from "../testing/socket";
import { ok } from "../conversations/testing";
import { bootTestVisitor, type TestVisitor } from "./testing";
import type { VisitorRealtimeMessage } from "./visitor-realtime-schemas";
import { visitorRealtimeSchemas } from "./visitor-realtime-schemas";

type Msg = VisitorRealtimeMessage & { id: number | null; channel: string; time: number };

interface Ack {
  subscribed: string[];
  refused: string[];
  position?: number;
  error?: string;
}

/** A visitor with a conversation it started (through the operators' API, as its user). */
async function visitorWithConversation(s: TestServer, a: TestApp, sockets: TestSockets, body = "Hello") {
  const v = await bootTestVisitor(s, a);
  const userId = BigInt(v.boot.visitor.id);
  const d = ok(await a.api.postForm(`/api/users/${userId}/startconversation`, { body }));
  await tailed(s, sockets, v);
  return { v, userId, conv: BigInt(d.id as number) };
}

/**
 * Waits until the server's tail has read every committed event: a socket subscribed before that is sent, live,
 * what was committed before it subscribed, and these tests count exactly what each socket receives.
 */
async function tailed(s: TestServer, sockets: TestSockets, v: TestVisitor) {
  const [row] = await s.db.$queryRaw<{ max: bigint | null }[]>`SELECT max(id) AS max FROM event_log`;
  const committed = Number(row?.max ?? 0);
  const socket = await sockets.open({ token: v.boot.access_token });
  try {
    await until(async () => ((await subscribe(socket, [])).position! >= committed ? true : undefined));
  } finally {
    socket.disconnect();
  }
}

/** A visitor socket subscribed to `messenger`, every message it receives checked against the contract. */
async function listen(sockets: TestSockets, v: TestVisitor, after?: number) {
  const socket = await sockets.open({ token: v.boot.access_token });
  const got: Msg[] = [];
  socket.on("message", (m: Msg) => {
    visitorRealtimeSchemas[m.type].parse(m.message);
    got.push(m);
  });
  const ack = await subscribe(socket, ["messenger"], after);
  expect(ack.subscribed).toEqual(["messenger"]);
  return { socket, got, ack };
}

const subscribe = (socket: Socket, channels: unknown[], after?: number) =>
  socket.timeout(10_000).emitWithAck("subscribe", { channels, after }) as Promise<Ack>;

async function until<T>(what: () => T | undefined | Promise<T | undefined>, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

const bodies = (got: Msg[]) => got.flatMap((m) => (m.type === "messenger_part" ? [m.message.part.body] : []));

describe("a visitor's messenger subscription", () => {
  it("delivers operators' replies as messenger_part, and never a note", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const { v, conv } = await visitorWithConversation(s, a, sockets);
    const { got } = await listen(sockets, v);
    ok(await a.api.postForm(`/api/conversations/${conv}/reply`, { body: "secret note", type: "note" }));
    ok(await a.api.postForm(`/api/conversations/${conv}/reply`, { body: "hi there" }));
    await until(() => (bodies(got).length ? true : undefined));
    // The note precedes the reply in the log, and a socket gets the log in order: had it been sent, it would have
    // arrived first.
    expect(bodies(got)).toEqual(["hi there"]);
    const part = got.find((m) => m.type === "messenger_part")!;
    expect(part).toMatchObject({
      channel: "messenger",
      message: {
        conversation: Number(conv),
        part: { type: "reply_admin", body: "hi there", from: { kind: "admin", id: Number(a.admin.id) } },
      },
    });
    expect(typeof part.id).toBe("number");
    expect(JSON.stringify(got)).not.toContain("secret note");
    expect(JSON.stringify(got)).not.toContain("@");
  });

  it("delivers the visitor's own messages (a second tab), reads and conversation changes", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const { v, conv, userId } = await visitorWithConversation(s, a, sockets);
    const { got } = await listen(sockets, v);
    ok(
      await a.api.postForm(`/api/conversations/${conv}/reply`, {
        body: "from tab one",
        from_user: String(userId),
      }),
    );
    ok(await a.api.postForm(`/api/conversations/${conv}/read`, {}));
    ok(await a.api.postForm(`/api/conversations/${conv}/close`, {}));
    await until(() => got.find((m) => m.type === "messenger_conversation"));
    expect(got.map((m) => m.type)).toEqual(["messenger_part", "messenger_read", "messenger_conversation"]);
    expect(got[0]).toMatchObject({ message: { part: { type: "reply_user", from: { kind: "user" } } } });
    expect(got[1]).toMatchObject({ message: { conversation: Number(conv), by: "admin" } });
    expect(got[2]).toMatchObject({
      message: { id: Number(conv), closed: true, last_part: { body: "from tab one" } },
    });
  });

  it("tells every tab of a conversation the visitor started and wrote in through the messenger API", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const v = await bootTestVisitor(s, a);
    const tab = await listen(sockets, v);
    const base = "/api/v2/messenger/conversations";
    const started = ok(await v.api.postJson(base, { body: "from the frame", random_id: 7 }));
    const conv = (started.conversation as { id: number }).id;
    ok(await v.api.postJson(`${base}/${conv}/reply`, { body: "and more" }));
    await until(() => (bodies(tab.got).includes("and more") ? true : undefined));
    expect(tab.got.map((m) => m.type)).toEqual([
      "messenger_part",
      "messenger_conversation",
      "messenger_part",
    ]);
    expect(tab.got[0]).toMatchObject({
      message: { part: { type: "reply_user", body: "from the frame", random_id: 7, from: { kind: "user" } } },
    });
    // The summary is the list's item, unread count included.
    const [item] = ok(await v.api.get(base)) as unknown as Record<string, unknown>[];
    const { last_part: _last, last_update: _update, ...rest } = item!;
    expect(tab.got[1]!.message).toMatchObject({ ...rest, unread: 0 });
  });

  it("tells the visitor of a conversation an operator started, live, with its unread count as of each change", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const v = await bootTestVisitor(s, a);
    const userId = BigInt(v.boot.visitor.id);
    const { got } = await listen(sockets, v);
    const d = ok(await a.api.postForm(`/api/v2/users/${userId}/sendmessage`, { body: "Can we help?" }));
    const conv = d.id as number;
    await until(() => got.find((m) => m.type === "messenger_conversation"));
    expect(got.map((m) => m.type)).toEqual(["messenger_part", "messenger_conversation"]);
    expect(got[1]!.message).toMatchObject({ id: conv, unread: 1, last_part: { body: "Can we help?" } });
    // A second reply, then a close: the close's summary counts both (as the list would then).
    ok(await a.api.postForm(`/api/conversations/${conv}/reply`, { body: "Anyone?" }));
    ok(await a.api.postForm(`/api/conversations/${conv}/close`, {}));
    await until(() =>
      got.filter((m) => m.type === "messenger_conversation").length === 2 ? true : undefined,
    );
    expect(got.at(-1)!.message).toMatchObject({ id: conv, closed: true, unread: 2 });
    const [item] = ok(await v.api.get("/api/v2/messenger/conversations")) as unknown as { unread: number }[];
    expect(item!.unread).toBe(2);
    // Read by the visitor, then reopened: nothing unread.
    ok(await v.api.postJson(`/api/v2/messenger/conversations/${conv}/read`, {}));
    ok(await a.api.postForm(`/api/conversations/${conv}/reopen`, {}));
    await until(() =>
      got.filter((m) => m.type === "messenger_conversation").length === 3 ? true : undefined,
    );
    expect(got.at(-1)!.message).toMatchObject({ id: conv, closed: false, unread: 0 });
    // Replayed from before it all: the summaries in order, counted now (both replies were read since; the replayed
    // read event says so too), never more than the list's.
    const again = await listen(sockets, v, got[0]!.id! - 1);
    await until(() =>
      again.got.filter((m) => m.type === "messenger_conversation").length === 3 ? true : undefined,
    );
    const unreads = (ms: Msg[]) =>
      ms.flatMap((m) => (m.type === "messenger_conversation" ? [m.message.unread] : []));
    expect(unreads(again.got)).toEqual([0, 0, 0]);
  });

  it("delivers an operator's reply typing, never note typing nor the visitor's own", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const { v, conv, userId } = await visitorWithConversation(s, a, sockets);
    const { got } = await listen(sockets, v);
    const typing = (form: Record<string, string>) =>
      a.api.postForm(`/api/conversations/${conv}/settyping`, form).then(ok);
    await typing({ body: "a note in progress", note: "true" });
    await typing({ body: "me", from_user: String(userId) });
    await typing({ body: "a reply in progress" });
    // Typing goes to the sockets while its request is answered; a reply after it comes through the log, later: once
    // the reply is here, every typing the visitor was sent is too.
    ok(await a.api.postForm(`/api/conversations/${conv}/reply`, { body: "after the typing" }));
    await until(() => (bodies(got).includes("after the typing") ? true : undefined));
    const t = got.find((m) => m.type === "messenger_typing");
    expect(got.filter((m) => m.type === "messenger_typing")).toHaveLength(1);
    expect(t).toMatchObject({
      id: null,
      message: { conversation: Number(conv), admin: { id: Number(a.admin.id) } },
    });
    expect(JSON.stringify(t)).not.toContain("in progress");
  });

  it("never delivers another visitor's conversations", async ({ server: s, app: a, sockets }) => {
    const mine = await visitorWithConversation(s, a, sockets);
    const theirs = await visitorWithConversation(s, a, sockets);
    const { got } = await listen(sockets, mine.v);
    ok(await a.api.postForm(`/api/conversations/${theirs.conv}/reply`, { body: "for them" }));
    ok(await a.api.postForm(`/api/conversations/${theirs.conv}/settyping`, { body: "x" }));
    ok(await a.api.postForm(`/api/conversations/${mine.conv}/reply`, { body: "for me" }));
    await until(() => (bodies(got).length ? true : undefined));
    // Their reply precedes mine in the log and their typing went out while its request was answered: had either been
    // sent to me, it would have arrived first.
    expect(bodies(got)).toEqual(["for me"]);
    expect(got.some((m) => m.type === "messenger_typing")).toBe(false);
  });

  it("replays what was missed while offline from `after`, once and in order", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const { v, conv } = await visitorWithConversation(s, a, sockets);
    const first = await listen(sockets, v);
    ok(await a.api.postForm(`/api/conversations/${conv}/reply`, { body: "one" }));
    const seen = await until(() => first.got.find((m) => m.type === "messenger_part"));
    first.socket.disconnect();
    for (const body of ["two", "three"])
      ok(await a.api.postForm(`/api/conversations/${conv}/reply`, { body }));
    ok(await a.api.postForm(`/api/conversations/${conv}/reply`, { body: "hidden", type: "note" }));
    const again = await listen(sockets, v, seen.id!);
    ok(await a.api.postForm(`/api/conversations/${conv}/reply`, { body: "four" }));
    await until(() => (bodies(again.got).includes("four") ? true : undefined));
    // A fresh tab without `after` gets nothing of the past. A last reply, live to both tabs, comes after anything
    // either was still to get: a replay, or a part sent twice.
    const fresh = await listen(sockets, v);
    ok(await a.api.postForm(`/api/conversations/${conv}/reply`, { body: "five" }));
    await until(() =>
      bodies(again.got).includes("five") && bodies(fresh.got).includes("five") ? true : undefined,
    );
    expect(bodies(again.got)).toEqual(["two", "three", "four", "five"]);
    const ids = again.got.map((m) => m.id!);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    const five = again.got.find((m) => m.type === "messenger_part" && m.message.part.body === "five");
    expect(fresh.got.map((m) => [m.type, m.id])).toEqual([["messenger_part", five!.id]]);
  });

  it("refuses the operators' channels, and is refused to operator sockets", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const { v } = await visitorWithConversation(s, a, sockets);
    const socket = await sockets.open({ token: v.boot.access_token });
    const app = a.app.id;
    const ack = await subscribe(socket, [
      `conversation_reply.${app}`,
      `conversation.${app}.${v.boot.visitor.id}`,
    ]);
    expect(ack.subscribed).toEqual([]);
    expect(ack.refused).toHaveLength(2);
    const mixed = await subscribe(socket, ["messenger", `conversation_typing.${app}`]);
    expect(mixed).toMatchObject({ subscribed: ["messenger"], refused: [`conversation_typing.${app}`] });
    const operator = await sockets.open({ token: a.token });
    expect(await subscribe(operator, ["messenger"])).toMatchObject({
      subscribed: [],
      refused: ["messenger"],
    });
  });

  it("ends with the visitor's logout or merge (disconnectVisitor)", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const { v, userId } = await visitorWithConversation(s, a, sockets);
    const { socket } = await listen(sockets, v);
    const other = await visitorWithConversation(s, a, sockets);
    const kept = await listen(sockets, other.v);
    const dropped = watchDisconnect(socket);
    disconnectVisitor(userId);
    await dropped.within(2000);
    expect(kept.socket.connected).toBe(true);
  });
});
