import { describe, expect } from "vitest";
import type { z } from "zod";
import type { Socket } from "socket.io-client";
import { it } from "../testing/fixture";
import { makeAdmin, makeSession, unique } from "../testing/factories";
import { client } from "../testing/http";
import { ok } from "../conversations/testing";
import { bootTestVisitor } from "../messenger/testing";
import {
  appChannel,
  CHANNEL_KINDS,
  MESSENGER_CHANNEL,
  operatorChannel,
  TRANSIENT_KINDS,
  WEBHOOK_ONLY_KINDS,
  type SubscribeAck,
} from "../contract/socket";
import { parseSocketMessage, SOCKET_SCHEMAS } from "./contract";

/**
 * Every message the server sends, and every row it logs, is the socket contract's (lib/realtime/contract.ts): the
 * API is driven through a change of each kind while an operator listens on all the app's channels and a visitor on
 * `messenger`, and each message is parsed with the contract as the panel parses it.
 */

/** Every message the socket receives, parsed; what the contract refused, with why. */
function listen(socket: Socket) {
  const kinds = new Set<string>();
  const problems: string[] = [];
  socket.on("message", (raw: unknown) => {
    const r = parseSocketMessage(raw);
    if ("problem" in r) problems.push(r.problem);
    else kinds.add(r.msg.kind === MESSENGER_CHANNEL ? r.msg.type : r.msg.kind);
  });
  return { kinds, problems };
}

async function subscribe(socket: Socket, channels: string[]) {
  const ack = (await socket.timeout(10_000).emitWithAck("subscribe", { channels })) as SubscribeAck;
  expect(ack.refused).toEqual([]);
}

describe("the socket contract, against the server", () => {
  it("holds for a message of every kind the server sends, and every row of the log", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const appId = a.app.id;
    const ann = await makeSession(s.db, a.admin.id);
    const bob = await makeAdmin(s.db, { appId });
    const asAnn = client(s, ann);
    const asBob = client(s, await makeSession(s.db, bob.id));

    const panel = await sockets.open({ cookie: ann.cookie });
    const heard = listen(panel);
    await subscribe(panel, [
      ...CHANNEL_KINDS.filter((k) => k !== "notification" && k !== "bulk_job").map((k) =>
        appChannel(k, appId),
      ),
      operatorChannel("notification", appId, a.admin.id),
      operatorChannel("bulk_job", appId, a.admin.id),
    ]);
    const v = await bootTestVisitor(s, a);
    const frame = await sockets.open({ token: v.boot.access_token });
    const seen = listen(frame);
    await subscribe(frame, [MESSENGER_CHANNEL]);

    const user = BigInt(v.boot.visitor.id);
    const conv = ok(await a.api.postForm(`/api/users/${user}/startconversation`, { body: "Hello" }))
      .id as number;
    const path = `/api/conversations/${conv}`;
    // Ann's reply leaves it unassigned, for Bob's assignment below to notify her.
    await s.db.app.update({ where: { id: appId }, data: { assignOnReply: false } });
    // Read before the reply, which would leave nothing unread.
    ok(await asAnn.postJson(`${path}/read`, {}));
    ok(await asAnn.postJson(`${path}/reply`, { body: "Hi there", random_id: 42 }));
    ok(await a.api.postJson(`${path}/settyping`, { body: "and", from_user: String(user) }));
    ok(await asAnn.postJson(`${path}/settyping`, { body: "so" }));
    // Bob assigns Ann: Ann is notified.
    ok(await asBob.postJson(`${path}/assign`, { admin: String(a.admin.id) }));
    ok(await asAnn.postJson(`${path}/tag`, { tag: "vip" }));
    ok(await asAnn.del(`${path}/tag`, { tag: "vip" }));
    // The close asks the visitor to rate it (lib/csat), who does.
    await s.db.app.update({ where: { id: appId }, data: { csatEnabled: true } });
    ok(await asAnn.postJson(`${path}/close`, {}));
    ok(await v.api.postJson(`/api/v2/messenger/conversations/${conv}/rating`, { rating: 5 }));
    ok(
      await asAnn.postJson(`/api/apps/${appId}/conversations/bulk`, {
        action: "tag",
        tag: "b",
        selection: { ids: [conv] },
      }),
    );
    ok(await a.api.postForm(`/api/users/${user}/setpresence`, {}));
    const email = { op: "update_or_create", key: "$email", value: `${unique("v")}@example.com` };
    ok(await a.api.postJson(`/api/users/${user}/props`, { operations: [email] }));
    ok(await a.api.postJson(`/api/users/${user}/events`, { event: "clicked" }));
    // A user made by the event: a lead from the start (its user ID), which only webhooks hear of.
    ok(await a.api.postJson(`/api/users/${unique("ext")}/events`, { by_user_id: true, event: "signed_up" }));
    ok(await asAnn.postJson(`/api/apps/${appId}/availability`, { status: "away" }));
    // A proactive message to the visitor (after the reply above: the per-user interval does not hold it back).
    await s.db.app.update({ where: { id: appId }, data: { messageIntervalSeconds: 0 } });
    const trigger = unique("wants-help");
    ok(
      await a.api.postJson(`/api/apps/${appId}/messages`, {
        name: "Help",
        kind: "chat",
        content: { sender: Number(a.admin.id), body: "Need a hand?" },
        trigger: { event: trigger },
      }),
    );
    ok(await a.api.postJson(`/api/users/${user}/events`, { event: trigger }));
    const hook = await s.db.webhookSubscription.create({
      data: { appId, url: "http://127.0.0.1:1/hook", events: ["user.event"], secret: "whsec_test" },
    });
    ok(await a.api.postJson(`/api/apps/${appId}/webhooks/${hook.id}/test`, {}));

    const sorted = (set: Set<string>) => [...set].sort();
    // Until a message of each kind came; with the contract's reasons for any it refused.
    const until = (got: ReturnType<typeof listen>, kinds: string[]) =>
      expect
        .poll(() => ({ kinds: sorted(got.kinds), problems: got.problems }), { timeout: 20_000 })
        .toEqual({ kinds: [...kinds].sort(), problems: [] });
    await until(heard, [...CHANNEL_KINDS]);
    await until(seen, Object.keys(SOCKET_SCHEMAS.messenger));

    // Rows are checked as they are stored, the webhooks' kinds and those the grouped ingest writes in SQL included.
    const rows = await s.db.eventLogEntry.findMany({ where: { appId } });
    const schemas = new Map<string, Record<string, z.ZodType>>(Object.entries(SOCKET_SCHEMAS));
    const logged = new Set<string>();
    for (const row of rows) {
      const kind = row.channel.slice(0, row.channel.indexOf("."));
      logged.add(kind);
      const parsed = schemas.get(kind)?.[row.type]?.safeParse(row.payload);
      expect(
        parsed?.success ? "valid" : (parsed?.error.message ?? "no schema"),
        `${row.channel} ${row.type}`,
      ).toBe("valid");
    }
    const stored = [...CHANNEL_KINDS, ...WEBHOOK_ONLY_KINDS].filter(
      (k) => !(TRANSIENT_KINDS as readonly string[]).includes(k),
    );
    expect(sorted(logged)).toEqual(stored.sort());
  }, 120_000);
});
