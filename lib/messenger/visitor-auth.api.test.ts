import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { client } from "../testing/http";
import { watchDisconnect } from "../testing/socket";
import { makeApp, makeUser, unique } from "../testing/factories";
import type { TestServer } from "../testing/server";
import type { TestApp } from "../testing/fixture";
import { errorOf, ok } from "../users/testing";
import {
  bootTestVisitor,
  expectTokensRevoked,
  visitorOf,
  warmUpVisitorApi,
  type TestVisitor,
} from "./testing";
import { userHashOf } from "./identity";
import type { VisitorAuth } from "./identity-schemas";

async function secretOf(s: TestServer, app: TestApp) {
  return (await s.db.messengerSettings.findUniqueOrThrow({ where: { appId: app.app.id } })).identitySecret;
}

async function requireIdentity(app: TestApp, required: boolean) {
  ok(await app.api.postJson(`/api/v2/apps/${app.app.id}/messenger`, { identity_required: required }));
}

const login = (v: TestVisitor, json: Record<string, unknown>) =>
  v.api.postJson("/api/v2/messenger/auth", json);

/** An anonymous visitor with a conversation, an event, a tag and an email: what a merge must carry over. */
async function busyVisitor(s: TestServer, app: TestApp) {
  const v = await bootTestVisitor(s, app);
  const id = v.boot.visitor.id;
  const conv = ok<{ id: number }>(
    await app.api.postJson(`/api/v2/users/${id}/startconversation`, { body: "Hello from a visitor" }),
  );
  ok(await v.api.postJson("/api/v2/messenger/track", { name: "viewed_pricing" }));
  ok(
    await v.api.postJson("/api/v2/messenger/identify", {
      email: "visitor@example.test",
      props: { plan: "pro" },
    }),
  );
  await s.db.userTag.create({ data: { userId: BigInt(id), appId: app.app.id, tag: "from-visitor" } });
  return { v, conversation: BigInt(conv.id) };
}

it.beforeAll(warmUpVisitorApi);

describe("messenger auth", () => {
  it("refuses a forged or missing hash where identity is required; the visitor stays anonymous", async ({
    server,
    app,
  }) => {
    await requireIdentity(app, true);
    try {
      const v = await bootTestVisitor(server, app);
      const userId = unique("site");
      const forged = userHashOf("not-the-secret", userId);
      errorOf(await login(v, { user_id: userId, user_hash: forged }), 403, "PermissionDenied");
      errorOf(await login(v, { user_id: userId }), 403, "PermissionDenied");
      errorOf(await login(v, { user_id: userId, user_hash: "zz" }), 403, "PermissionDenied");
      expect(await visitorOf(server, v.boot.access_token)).toMatchObject({ user_id: null, anonymous: true });
      expect(await server.db.user.count({ where: { appId: app.app.id, userId } })).toBe(0);
      // The right hash is taken: no such user yet, so the visitor becomes it.
      const r = ok<VisitorAuth>(
        await login(v, { user_id: userId, user_hash: userHashOf(await secretOf(server, app), userId) }),
      );
      expect(r).toMatchObject({ verified: true, merged: false });
      expect(r.visitor).toMatchObject({ id: v.boot.visitor.id, user_id: userId, anonymous: false });
    } finally {
      await requireIdentity(app, false);
    }
  });

  it("merges the anonymous visitor into the known user it logs in as", async ({ server, app, sockets }) => {
    const known = await makeUser(server.db, app.app.id, { userId: unique("site"), name: "Known" });
    const { v, conversation } = await busyVisitor(server, app);
    const closed = watchDisconnect(await sockets.open({ token: v.boot.access_token }));
    const anon = BigInt(v.boot.visitor.id);
    const hash = userHashOf(await secretOf(server, app), known.userId!);
    const r = ok<VisitorAuth>(await login(v, { user_id: known.userId, user_hash: hash }));
    expect(r).toMatchObject({ verified: true, merged: true });
    expect(r.visitor).toMatchObject({ id: Number(known.id), user_id: known.userId, name: "Known" });

    const conv = await server.db.conversation.findUniqueOrThrow({ where: { id: conversation } });
    expect(conv.userId).toBe(known.id);
    const parts = await server.db.conversationPart.findMany({ where: { conversationId: conversation } });
    expect(parts.filter((p) => p.direction === "u2a").every((p) => p.fromUserId === known.id)).toBe(true);
    expect(await server.db.user.findUnique({ where: { id: anon } })).toBeNull();
    const target = await server.db.user.findUniqueOrThrow({ where: { id: known.id } });
    expect(target).toMatchObject({ email: "visitor@example.test", name: "Known", conversationCount: 1 });
    expect(target.propsCustom).toEqual({ plan: "pro" });
    expect(await server.db.userTag.count({ where: { userId: known.id, tag: "from-visitor" } })).toBe(1);
    // Open Inboxes hear that the conversation is now the user's.
    const told = await server.db.eventLogEntry.findMany({
      where: { channel: `conversation.${app.app.id}`, userId: known.id },
    });
    const payloads = told.map((e) => e.payload as { id: number; user?: { id: number } });
    expect(payloads.map((p) => [p.id, p.user?.id])).toEqual([[Number(conversation), Number(known.id)]]);
    const events = ok<{ type: { name: string } }[]>(await app.api.get(`/api/v2/users/${known.id}/events`));
    expect(events.map((e) => e.type.name)).toContain("viewed_pricing");
    const convs = ok<{ items?: { id: number }[] } | { id: number }[]>(
      await app.api.get(`/api/v2/users/${known.id}/conversations`),
    );
    expect(JSON.stringify(convs)).toContain(`"id":${conversation}`);

    expect(await closed.within(5000)).toBeTruthy();
    // The old visitor's tokens are refused; the new pair is the user's; the device boots as the user now.
    await expectTokensRevoked(server, v.boot);
    expect((await visitorOf(server, r.access_token)).id).toBe(Number(known.id));
    const again = await bootTestVisitor(server, app, { deviceId: v.deviceId });
    expect(again.boot.visitor.id).toBe(Number(known.id));
    // Idempotent: the same login again changes nothing.
    const twice = ok<VisitorAuth>(
      await client(server, r.access_token).postJson("/api/v2/messenger/auth", {
        user_id: known.userId,
        user_hash: hash,
      }),
    );
    expect(twice).toMatchObject({ merged: false, visitor: { id: Number(known.id) } });
  });

  it("merges once when two tabs log in at the same time", async ({ server, app }) => {
    const known = await makeUser(server.db, app.app.id, { userId: unique("site") });
    const { v, conversation } = await busyVisitor(server, app);
    const tab2 = await bootTestVisitor(server, app, { deviceId: v.deviceId });
    const hash = userHashOf(await secretOf(server, app), known.userId!);
    const answers = await Promise.all(
      [v, tab2, v, tab2].map((t) => login(t, { user_id: known.userId, user_hash: hash })),
    );
    // A tab whose token the other's merge already ended is refused; every answer that is not names the user.
    for (const a of answers) expect([200, 401]).toContain(a.status);
    const done = answers.filter((a) => a.status === 200).map((a) => ok<VisitorAuth>(a));
    expect(done.length).toBeGreaterThan(0);
    for (const d of done) expect(d.visitor.id).toBe(Number(known.id));
    expect(done.filter((d) => d.merged)).toHaveLength(1);
    expect(await server.db.user.findUnique({ where: { id: BigInt(v.boot.visitor.id) } })).toBeNull();
    const target = await server.db.user.findUniqueOrThrow({ where: { id: known.id } });
    expect(target.conversationCount).toBe(1);
    expect((await server.db.conversation.findUniqueOrThrow({ where: { id: conversation } })).userId).toBe(
      known.id,
    );
    const summary = await server.db.userEventSummary.findMany({ where: { userId: known.id } });
    expect(summary.map((s) => s.count)).toEqual([1]);
  });

  it("new apps verify identities: a user_id without its hash is refused until the owner turns it off", async ({
    server,
    app,
  }) => {
    const fresh = await makeApp(server.db);
    const settings = ok<{ identity_required: boolean }>(
      await client(server, fresh.token).get(`/api/v2/apps/${fresh.app.id}/messenger`),
    );
    expect(settings.identity_required).toBe(true);
    const v = await bootTestVisitor(server, { ...fresh, api: client(server, fresh.token) });
    errorOf(await login(v, { user_id: unique("site") }), 403, "PermissionDenied");
    // The app of this file turned it off in an earlier test's finally, or never had it: state it here.
    await requireIdentity(app, false);
  });

  it("without verification, a user_id is a label on the visitor: never its user_id, never found, never an oracle", async ({
    server,
    app,
  }) => {
    await requireIdentity(app, false);
    const known = await makeUser(server.db, app.app.id, { userId: unique("site") });
    // Claiming a known user's ID answers as claiming a new one: whether it exists is not told.
    const onKnown = await bootTestVisitor(server, app);
    const a = ok<VisitorAuth>(await login(onKnown, { user_id: known.userId }));
    expect(a).toMatchObject({
      verified: false,
      merged: false,
      visitor: { id: onKnown.boot.visitor.id, user_id: null },
    });

    const v = await bootTestVisitor(server, app);
    const userId = unique("site");
    const r = ok<VisitorAuth>(await login(v, { user_id: userId }));
    expect(r).toMatchObject({
      verified: false,
      merged: false,
      visitor: { id: v.boot.visitor.id, user_id: null },
    });
    const row = await server.db.user.findUniqueOrThrow({ where: { id: BigInt(v.boot.visitor.id) } });
    expect(row.userId).toBeNull();
    expect(row.propsSources).toMatchObject({
      $user_id: { type: "messenger", verified: false, claimed: userId },
    });
    // The site's backend naming that ID reaches nobody, then makes the real user: never the claimant.
    errorOf(await app.api.get(`/api/v2/users/${userId}`, { by_user_id: "true" }), 400, "LookupError");
    const made = ok<{ id: number }>(
      await app.api.postJson(`/api/v2/users/${userId}/props`, {
        by_user_id: true,
        operations: [{ op: "update_or_create", key: "$name", value: "The real one" }],
      }),
    );
    expect(made.id).not.toBe(v.boot.visitor.id);
    // The same claim again is a no-op; another one needs a logout first.
    ok(await login(v, { user_id: userId }));
    errorOf(await login(v, { user_id: unique("site") }), 403, "PermissionDenied");
  });

  it("the real user's verified login never takes a claimant's data, and the claimant never gets the user's", async ({
    server,
    app,
  }) => {
    await requireIdentity(app, false);
    const userId = unique("site");
    const claimant = await busyVisitor(server, app);
    ok(await login(claimant.v, { user_id: userId }));

    const owner = await bootTestVisitor(server, app);
    const hash = userHashOf(await secretOf(server, app), userId);
    const r = ok<VisitorAuth>(await login(owner, { user_id: userId, user_hash: hash }));
    expect(r).toMatchObject({
      verified: true,
      merged: false,
      visitor: { id: owner.boot.visitor.id, user_id: userId, email: null },
    });
    const user = await server.db.user.findFirstOrThrow({ where: { appId: app.app.id, userId } });
    expect(user.id).toBe(BigInt(owner.boot.visitor.id));
    expect(user.propsCustom).toEqual({});
    expect(await server.db.conversation.count({ where: { userId: user.id } })).toBe(0);
    // What the site's backend sends to the ID now reaches the owner only.
    ok(
      await app.api.postJson(`/api/v2/users/${userId}/startconversation`, {
        by_user_id: true,
        body: "For you",
      }),
    );
    expect(await server.db.conversation.count({ where: { userId: user.id } })).toBe(1);
    const claimantRow = await server.db.user.findUniqueOrThrow({
      where: { id: BigInt(claimant.v.boot.visitor.id) },
    });
    expect(claimantRow).toMatchObject({ userId: null, email: "visitor@example.test" });
    expect(
      (await server.db.conversation.findUniqueOrThrow({ where: { id: claimant.conversation } })).userId,
    ).toBe(claimantRow.id);
    // The claimant is still only itself, and cannot become the user without the hash.
    expect(await visitorOf(server, claimant.v.boot.access_token)).toMatchObject({ user_id: null });
    ok(await login(claimant.v, { user_id: userId }));
    expect(await server.db.conversation.count({ where: { userId: claimantRow.id } })).toBe(1);
  });

  it("a claimant that proves an ID later takes its own history there, and the label goes", async ({
    server,
    app,
  }) => {
    await requireIdentity(app, false);
    const known = await makeUser(server.db, app.app.id, { userId: unique("site"), name: "Known" });
    const { v, conversation } = await busyVisitor(server, app);
    ok(await login(v, { user_id: unique("site") }));
    const hash = userHashOf(await secretOf(server, app), known.userId!);
    const r = ok<VisitorAuth>(await login(v, { user_id: known.userId, user_hash: hash }));
    expect(r).toMatchObject({ verified: true, merged: true, visitor: { id: Number(known.id) } });
    expect((await server.db.conversation.findUniqueOrThrow({ where: { id: conversation } })).userId).toBe(
      known.id,
    );
    const target = await server.db.user.findUniqueOrThrow({ where: { id: known.id } });
    expect((target.propsSources as Record<string, unknown>).$user_id).not.toMatchObject({ verified: false });
  });

  it("user IDs are trimmed, and look-alikes with invisible characters refused, wherever one is looked up", async ({
    server,
    app,
  }) => {
    await requireIdentity(app, false);
    const userId = unique("site");
    const u = await makeUser(server.db, app.app.id, { userId, name: "Plain" });
    const found = ok<{ id: number }>(
      await app.api.get(`/api/v2/users/${encodeURIComponent(` ${userId} `)}`, { by_user_id: "true" }),
    );
    expect(found.id).toBe(Number(u.id));
    for (const bad of [
      `${userId}\u200b`,
      `${userId}\u00a0x`,
      `\u202e${userId}`,
      `${userId}\u0007`,
      "\u3164",
    ]) {
      const r = await app.api.get(`/api/v2/users/${encodeURIComponent(bad)}`, { by_user_id: "true" });
      expect(errorOf(r, 400, "ValidationError").error_fields).toHaveProperty("id");
      const v = await bootTestVisitor(server, app);
      errorOf(await login(v, { user_id: bad }), 400, "ValidationError");
    }
    // A verified login of the ID with spaces around it is the user itself, signed as the API names it.
    const v = await bootTestVisitor(server, app);
    const hash = userHashOf(await secretOf(server, app), userId);
    const r = ok<VisitorAuth>(await login(v, { user_id: ` ${userId} `, user_hash: hash }));
    expect(r).toMatchObject({ verified: true, merged: true, visitor: { id: Number(u.id), user_id: userId } });
    expect(await server.db.user.count({ where: { appId: app.app.id, userId: { startsWith: userId } } })).toBe(
      1,
    );
  });
});
