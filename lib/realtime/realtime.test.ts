import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { makeUser } from "../testing/factories";
import { ok, startConversation } from "../conversations/testing";
import { listen, subscribe, until } from "./testing";

describe("socket.io delivery", () => {
  it("refuses connections without a valid token or session", async ({ sockets }) => {
    await expect(sockets.open({ token: "rly_nope" })).rejects.toThrow(/AuthenticationFailed/);
    await expect(sockets.open({})).rejects.toThrow(/AuthenticationFailed/);
  });

  it("delivers a reply made through the API with its random_id, and refuses other apps' channels", async ({
    server: s,
    app: a,
    other: b,
    sockets,
  }) => {
    const { socket, got } = await listen(sockets, { token: a.token });
    const ack = await subscribe(socket, [
      `conversation_reply.${a.app.id}`,
      `conversation_reply.${b.app.id}`,
      "nonsense",
      `conversation_reply.${a.app.id}.1.2`,
    ]);
    expect(ack).toEqual({
      subscribed: [`conversation_reply.${a.app.id}`],
      refused: [`conversation_reply.${b.app.id}`, "nonsense", `conversation_reply.${a.app.id}.1.2`],
      position: ack.position,
    });
    expect(Number.isSafeInteger(ack.position)).toBe(true);
    const c = a.api;
    const conv = await startConversation(c, s.db, a.app.id);
    const part = ok(
      await c.postForm(`/api/conversations/${conv.id}/reply`, { body: "hi there", random_id: "424242" }),
    );
    await until(() => got.some((m) => m.message.id === part.id), "the reply");
    const msg = got.find((m) => m.message.id === part.id)!;
    expect(msg.channel).toBe(`conversation_reply.${a.app.id}`);
    expect(msg.message.random_id).toBe(424242);
    expect(typeof msg.id).toBe("number");
    expect(msg.time).toBeGreaterThan(1_700_000_000);
    await startConversation(b.api, s.db, b.app.id);
    // A reply of this app made after comes after anything of the other app's the socket would have been sent.
    const after = ok(
      await c.postForm(`/api/conversations/${conv.id}/reply`, { body: "after the other app's" }),
    );
    await until(() => got.some((m) => m.message.id === after.id), "the reply after the other app's");
    expect(got.every((m) => m.channel === `conversation_reply.${a.app.id}`)).toBe(true);
  });

  it("scopes a channel to one visitor with .<user>, and serves operators through their session", async ({
    server: s,
    app: a,
    sockets,
    operator,
  }) => {
    const c = a.api;
    const mine = await startConversation(c, s.db, a.app.id);
    const other = await startConversation(c, s.db, a.app.id);
    const op = await operator(a.admin.id);
    const { socket, got } = await listen(sockets, { cookie: op.cookie });
    const scoped = `conversation_reply.${a.app.id}.${mine.userId}`;
    expect((await subscribe(socket, [scoped])).subscribed).toEqual([scoped]);
    ok(await c.postForm(`/api/conversations/${other.id}/reply`, { body: "not for you" }));
    ok(await c.postForm(`/api/conversations/${mine.id}/reply`, { body: "for you" }));
    await until(() => got.some((m) => m.message.body === "for you"), "the scoped reply");
    expect(got.map((m) => m.message.body)).toEqual(["for you"]);
    expect(got[0]!.channel).toBe(scoped);
  });

  it("delivers typing without storing it, and caps a socket at 50 channels", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const c = a.api;
    const conv = await startConversation(c, s.db, a.app.id);
    const { socket, got } = await listen(sockets, { token: a.token });
    await subscribe(socket, [`conversation_typing.${a.app.id}`]);
    const before = await s.db.eventLogEntry.count();
    ok(
      await c.postForm(`/api/conversations/${conv.id}/settyping`, {
        body: "typ",
        from_user: String(conv.userId),
      }),
    );
    await until(() => got.some((m) => m.channel === `conversation_typing.${a.app.id}`), "typing");
    expect(got[0]!.id).toBeNull();
    expect(await s.db.eventLogEntry.count()).toBe(before);
    const many = Array.from({ length: 60 }, (_, i) => `event.${a.app.id}.${i + 1}`);
    const ack = await subscribe(socket, many);
    expect(ack.subscribed.length).toBe(49);
    expect(ack.refused.length).toBe(11);
  });

  it("publishes presence and props changes on the app's channels and on the user's", async ({
    server: s,
    app: a,
    sockets,
  }) => {
    const user = await makeUser(s.db, a.app.id);
    const other = await makeUser(s.db, a.app.id);
    const app = a.app.id;
    const channels = [
      `user_presence_changed.${app}`,
      `user_presence_changed.${app}.${user.id}`,
      `user_props_changed.${app}`,
      `user_props_changed.${app}.${user.id}`,
    ];
    const { socket, got } = await listen(sockets, { token: a.token });
    expect((await subscribe(socket, channels)).subscribed).toEqual(channels);
    const c = a.api;
    // The other user's changes first: had they leaked onto the user's channels, they would be there before his.
    for (const u of [other, user]) {
      ok(await c.postForm(`/api/users/${u.id}/setpresence`, { presence: "online" }));
      ok(
        await c.postJson(`/api/users/${u.id}/props`, {
          operations: [{ op: "update_or_create", key: "plan", value: `pro ${u.id}` }],
        }),
      );
    }
    const on = (channel: string) => got.filter((m) => m.channel === channel);
    await until(() => on(channels[3]!).length > 0 && on(channels[1]!).length > 0, "the user's own channels");

    const presence = on(`user_presence_changed.${app}`);
    expect(presence.map((m) => m.message)).toEqual([
      expect.objectContaining({ id: Number(other.id), app: Number(app), presence: "online" }),
      expect.objectContaining({ id: Number(user.id), app: Number(app), presence: "online" }),
    ]);
    const myPresence = on(`user_presence_changed.${app}.${user.id}`);
    expect(myPresence).toHaveLength(1);
    expect(myPresence[0]).toMatchObject({ id: presence[1]!.id, message: presence[1]!.message });

    const props = on(`user_props_changed.${app}`);
    expect(props.map((m) => m.message)).toEqual([
      expect.objectContaining({ user: Number(other.id), props: { plan: `pro ${other.id}` } }),
      expect.objectContaining({ user: Number(user.id), props: { plan: `pro ${user.id}` } }),
    ]);
    const myProps = on(`user_props_changed.${app}.${user.id}`);
    expect(myProps).toHaveLength(1);
    expect(myProps[0]).toMatchObject({ id: props[1]!.id, message: props[1]!.message });
  });
});
