import { afterAll, describe, expect, it } from "vitest";
import { io as connect, type Socket } from "socket.io-client";
import { makeApp, makeUser } from "../testing/factories";
import { makeTarget, type Target } from "../testing/target";
import { spawnServer, type Spawned } from "../testing/spawn";
import { startReceiver, waitUntil, type Receiver } from "../webhooks/testing";
import { webhookMessageId } from "../webhooks/deliveries";
import type { Msg } from "../realtime/testing";

/**
 * The real server as a child process, SIGKILLed while several clients write (replies and props updates), then
 * started again on the same data: every acknowledged write is there, a socket that resubscribes from the last id
 * it saw gets every later event of the log exactly once, and the webhook receiver gets a delivery for every event.
 * Replies carry an Idempotency-Key: those the kill left unanswered, retried with it after the restart, are stored
 * at most once.
 */
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

function start(target: Target): Spawned {
  // The load is about crashes, not the per-token limit (50/s), which it could otherwise reach on a fast machine.
  const s = spawnServer({
    ...target.env,
    SEED_DEMO: "0",
    WEBHOOK_ALLOW_PRIVATE: "1",
    RATE_LIMIT_PER_SECOND: "100000",
    RATE_LIMIT_BURST: "100000",
  });
  cleanups.push(async () => {
    if (s.child.exitCode === null) s.child.kill("SIGKILL");
    await s.exited;
  });
  return s;
}

async function listen(url: string, token: string, channels: string[], after: number, got: Msg[]) {
  const socket: Socket = connect(url, {
    path: "/socket.io",
    transports: ["websocket"],
    auth: { token },
    reconnection: false,
  });
  cleanups.push(async () => void socket.disconnect());
  socket.on("message", (m: Msg) => got.push(m));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  const ack = (await socket.emitWithAck("subscribe", { channels, after })) as { subscribed: string[] };
  expect(ack.subscribed).toEqual(channels);
  return socket;
}

describe("SIGKILL under a write load", () => {
  it("keeps every acknowledged write and delivers every event after the restart", async () => {
    const target = await makeTarget("crashload");
    cleanups.push(() => target.drop());
    const h = await target.open();
    const { app, token } = await makeApp(h.db);
    const users = await Promise.all(Array.from({ length: 6 }, () => makeUser(h.db, app.id)));
    await h.close();
    const receiver: Receiver = await startReceiver();
    cleanups.push(() => receiver.close());

    const first = start(target);
    const url1 = await first.ready;
    const call = (base: string, path: string, body: unknown, key?: string) =>
      fetch(base + path, {
        method: "POST",
        headers: {
          Authorization: `Token ${token}`,
          "content-type": "application/json",
          ...(key ? { "Idempotency-Key": key } : {}),
        },
        body: JSON.stringify(body),
      });
    const hook = await call(url1, `/api/v2/apps/${app.id}/webhooks`, {
      url: receiver.url,
      events: ["conversation.user_replied", "conversation.admin_replied", "user.props_changed"],
    });
    expect(hook.status).toBe(200);
    const convs: number[] = [];
    for (const u of users.slice(0, 3)) {
      const r = await call(url1, `/api/users/${u.id}/startconversation`, { body: "hello" });
      convs.push(((await r.json()) as { data: { id: number } }).data.id);
    }
    const channels = [`conversation_reply.${app.id}`, `user_props_changed.${app.id}`];
    const got: Msg[] = [];
    const socket1 = await listen(url1, token, channels, 0, got);

    // Four clients write until the kill; only answers that arrived count as acknowledged.
    const ackedParts: number[] = [];
    const ackedProps: { user: bigint; key: string }[] = [];
    const unanswered: { path: string; body: Record<string, string> }[] = [];
    let killed = false;
    const writer = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const reply = {
          path: `/api/conversations/${convs[(i + w) % convs.length]}/reply`,
          body: { body: `w${w} #${i}`, ...(i % 3 === 0 ? { from_user: "default_user" } : {}) },
        };
        try {
          if ((i + w) % 2 === 0) {
            const r = await call(url1, reply.path, reply.body, reply.body.body).catch((err: unknown) => {
              unanswered.push(reply);
              throw err;
            });
            if (r.status === 200) ackedParts.push(((await r.json()) as { data: { id: number } }).data.id);
          } else {
            const user = users[(i * 5 + w) % users.length]!.id;
            const key = `w${w}_${i}`;
            const r = await call(url1, `/api/users/${user}/props`, {
              operations: [{ op: "update_or_create", key, value: i }],
            });
            if (r.status === 200) ackedProps.push({ user, key });
          }
        } catch {
          return; // the connection died with the server
        }
      }
    };
    const writers = Array.from({ length: 4 }, (_, w) => writer(w));
    // The socket leaves half-way, so that the replay after the restart has a stretch of the log to make up.
    await waitUntil(async () => ackedParts.length + ackedProps.length >= 40, 60_000);
    socket1.disconnect();
    await waitUntil(async () => ackedParts.length + ackedProps.length >= 80, 60_000);
    first.child.kill("SIGKILL");
    killed = true;
    await first.exited;
    await Promise.all(writers);
    const lastSeen = got.reduce((m, x) => Math.max(m, x.id ?? 0), 0);

    const second = start(target);
    const url2 = await second.ready;
    const after: Msg[] = [];
    await listen(url2, token, channels, lastSeen, after);

    // The replies the kill cut off, retried twice with their keys: run once at most, never twice.
    const retried: number[] = [];
    for (const u of unanswered) {
      for (let n = 0; n < 2; n++) {
        const r = await call(url2, u.path, u.body, u.body.body);
        const env = (await r.json()) as { data: { id?: number }; meta: { error?: string } };
        if (r.status === 200) retried.push(env.data.id!);
        else expect([r.status, env.meta.error], JSON.stringify(env)).toEqual([400, "ValidationError"]);
      }
    }

    // A write after the restart: once its event arrives, everything before it has (delivery is in id order).
    const final = await call(url2, `/api/conversations/${convs[0]}/reply`, { body: "after the restart" });
    const finalId = ((await final.json()) as { data: { id: number } }).data.id;
    await waitUntil(
      async () => after.some((m) => m.channel === channels[0] && m.message.id === finalId),
      60_000,
    );
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);

    const db = await target.open();
    let deliveryIds: string[];
    try {
      // Every acknowledged write is stored, once.
      expect(new Set(ackedParts).size).toBe(ackedParts.length);
      const stored = await db.db.conversationPart.findMany({ where: { id: { in: ackedParts.map(BigInt) } } });
      expect(stored).toHaveLength(ackedParts.length);
      for (const u of unanswered) {
        const n = await db.db.conversationPart.count({ where: { body: u.body.body } });
        expect(n, u.body.body).toBeLessThanOrEqual(1);
      }
      if (retried.length) expect(new Set(retried).size).toBeLessThanOrEqual(unanswered.length);
      for (const { user, key } of ackedProps) {
        const row = await db.db.user.findUniqueOrThrow({ where: { id: user } });
        expect(row.propsCustom, `acknowledged prop ${key} of ${user}`).toHaveProperty(key);
      }
      const log = await db.db.eventLogEntry.findMany({
        where: { channel: { in: channels } },
        orderBy: { id: "asc" },
        select: { id: true },
      });
      const logIds = log.map((e) => Number(e.id));
      // Sockets: the first life's messages and the replay after the restart make up the log, each id once.
      expect(after.every((m) => m.id! > lastSeen)).toBe(true);
      expect(after.length).toBeGreaterThan(20);
      expect([...got, ...after].map((m) => m.id!)).toEqual(logIds);
      // Webhooks: a delivery for every event of the log.
      const deliveries = await db.db.webhookDelivery.findMany({ where: { eventId: { not: null } } });
      expect(new Set(deliveries.map((d) => Number(d.eventId)))).toEqual(new Set(logIds));
      deliveryIds = deliveries.map((d) => webhookMessageId(d.id));
    } finally {
      await db.close();
    }
    // Each received, by the first life, the second, or the retries of a third start.
    const want = new Set(deliveryIds);
    const third = start(target);
    await third.ready;
    const distinct = () => new Set(receiver.received.map((r) => String(r.headers["x-webhook-id"])));
    await waitUntil(async () => [...want].every((id) => distinct().has(id)), 120_000).catch(() => undefined);
    const missing = [...want].filter((id) => !distinct().has(id));
    expect(missing, `of ${want.size} webhooks`).toEqual([]);
    console.log(
      `crash: ${ackedParts.length} replies + ${ackedProps.length} props acknowledged before the kill; ` +
        `${after.length} events replayed after it; ${unanswered.length} unanswered replies retried; ` +
        `${want.size} webhooks delivered`,
    );
    third.child.kill("SIGTERM");
    await third.exited;
  }, 300_000);
});
