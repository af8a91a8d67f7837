import type { Socket } from "socket.io-client";

type Call = (
  path: string,
  init?: { method?: string; json?: unknown; token?: string },
) => Promise<Record<string, unknown>>;

interface Msg {
  type?: string;
  message: { message?: number };
}

/** Resolves with the latency of the first `messenger_message` of message `id` on the socket, from `at`. */
function messageArrival(
  socket: Socket,
  id: number,
  at: number,
  timeoutMs = 10_000,
): Promise<number | undefined> {
  return new Promise((resolve) => {
    const on = (m: Msg) => {
      if (m.type === "messenger_message" && m.message.message === id) done(performance.now() - at);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    const done = (v: number | undefined) => {
      clearTimeout(timer);
      socket.off("message", on);
      resolve(v);
    };
    socket.on("message", on);
  });
}

/**
 * Proactive messages beside the visitors' sockets: `count` active chat messages in the app (triggers on the site's
 * events and page views, none of them the one tracked), then one more with no timeout on `bench_trigger`; each of
 * the visitors in turn has the event tracked through the REST API (a site's backend), and the latency runs to the
 * `messenger_message` on that visitor's socket: the log's reader, the send job and the hub together.
 */
export async function measureMessages(opts: {
  call: Call;
  appId: bigint;
  adminId: bigint;
  count: number;
  visitors: { socket: Socket; userId: number }[];
}): Promise<{ latencies: number[]; lost: number }> {
  const { call, appId } = opts;
  const base = `/api/apps/${appId}/messages`;
  const events = ["viewed_pricing", "added_to_cart", "signed_up", "$page_view"];
  for (let i = 0; i < opts.count; i++) {
    const event = events[i % events.length]!;
    await call(base, {
      json: {
        name: `Bench ${i}`,
        kind: "chat",
        content: { sender: Number(opts.adminId), body: `Message ${i}` },
        trigger: event === "$page_view" ? { event, url: `https://shop.test/p${i}*` } : { event },
      },
    });
  }
  const m = await call(base, {
    json: {
      name: "Bench trigger",
      kind: "chat",
      content: { sender: Number(opts.adminId), body: "Can we help?" },
      trigger: { event: "bench_trigger" },
    },
  });
  const latencies: number[] = [];
  let lost = 0;
  for (const v of opts.visitors) {
    const at = performance.now();
    const got = messageArrival(v.socket, m.id as number, at);
    await call(`/api/users/${v.userId}/events`, { json: { event: "bench_trigger" } });
    const ms = await got;
    if (ms === undefined) lost++;
    else latencies.push(ms);
  }
  return { latencies, lost };
}
