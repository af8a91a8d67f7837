import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { client } from "../testing/http";
import { watchDisconnect } from "../testing/socket";
import { unique } from "../testing/factories";
import { errorOf, ok } from "../users/testing";
import { bootTestVisitor, expectTokensRevoked, visitorOf, warmUpVisitorApi } from "./testing";
import type { Visitor } from "./visitor-schemas";
import type { Heartbeat } from "./identity-schemas";
import { forgetOperatorsOnline } from "../admins/operators-seen";
import { hoursOpeningIn } from "../apps/testing";
import { makeSession } from "../testing/factories";
import type { TokenPairData } from "../sessions/schemas";

it.beforeAll(warmUpVisitorApi);

describe("messenger identify", () => {
  it("sets the visitor's props with their source; an email makes the anonymous visitor a lead", async ({
    server,
    app,
  }) => {
    const v = await bootTestVisitor(server, app);
    const id = BigInt(v.boot.visitor.id);
    ok(await v.api.postJson("/api/v2/messenger/identify", { name: "Ann" }));
    // A name alone already makes a lead by the spec's rule; a fresh visitor with props only does not.
    const w = await bootTestVisitor(server, app);
    const wid = BigInt(w.boot.visitor.id);
    const plain = ok<Visitor>(
      await w.api.postJson("/api/v2/messenger/identify", {
        props: { plan: "pro" },
        operations: [{ op: "add", key: "visits", value: 2 }],
      }),
    );
    expect(plain.anonymous).toBe(true);
    let row = await server.db.user.findUniqueOrThrow({ where: { id: wid } });
    expect(row.isLead).toBe(false);
    expect(row.propsCustom).toEqual({ plan: "pro", visits: 2 });

    const r = await w.api.postJson("/api/v2/messenger/identify", {
      email: "ann@example.test",
      phone: "+100200300",
      source: "email_prompt",
    });
    const after = ok<Visitor>(r);
    expect(after).toMatchObject({ email: "ann@example.test", anonymous: false, user_id: null });
    row = await server.db.user.findUniqueOrThrow({ where: { id: wid } });
    expect(row.isLead).toBe(true);
    expect(row.phone).toBe("+100200300");
    expect(row.propsSources).toMatchObject({
      $email: { type: "messenger.email_prompt" },
      $phone: { type: "messenger.email_prompt" },
    });
    const leadEvents = await server.db.eventLogEntry.count({ where: { userId: wid, type: "lead_created" } });
    expect(leadEvents).toBe(1);
    // Invalid operations are reported, as the operators' props call does.
    const bad = await w.api.postJson("/api/v2/messenger/identify", {
      operations: [{ op: "nope", key: "x", value: 1 }],
    });
    expect(ok(bad)).toMatchObject({ id: Number(wid) });
    expect(bad.body.meta.ignored_operations).toHaveLength(1);
    expect((await server.db.user.findUniqueOrThrow({ where: { id } })).name).toBe("Ann");
  });

  it("refuses system props a visitor may not set", async ({ server, app }) => {
    const v = await bootTestVisitor(server, app);
    for (const key of ["$user_id", "$sessions", "$last_seen", "$initial_referrer", "$event_1_count"]) {
      const e = errorOf(
        await v.api.postJson("/api/v2/messenger/identify", {
          operations: [
            { op: "update_or_create", key: "$name", value: "Bob" },
            { op: "set_once", key, value: 5 },
          ],
        }),
        400,
        "ValidationError",
      );
      expect(JSON.stringify(e)).toContain(key);
    }
    errorOf(
      await v.api.postJson("/api/v2/messenger/identify", { props: { $email: "x@example.test" } }),
      400,
      "ValidationError",
    );
    errorOf(await v.api.postJson("/api/v2/messenger/identify", { email: "nope" }), 400, "ValidationError");
    // Nothing of a refused request was written.
    const row = await server.db.user.findUniqueOrThrow({ where: { id: BigInt(v.boot.visitor.id) } });
    expect(row).toMatchObject({ name: null, email: null, sessions: 0, isLead: false });
  });
});

describe("messenger track and heartbeat", () => {
  it("tracks the visitor's events, shown to operators; $ names other than $page_view are refused", async ({
    server,
    app,
  }) => {
    const v = await bootTestVisitor(server, app);
    const name = unique("clicked");
    ok(await v.api.postJson("/api/v2/messenger/track", { name, params: { plan: "pro" } }));
    ok(await v.api.postJson("/api/v2/messenger/track", { name: "$page_view", params: { url: "/pricing" } }));
    errorOf(
      await v.api.postJson("/api/v2/messenger/track", { name: "$session_start" }),
      400,
      "ValidationError",
    );
    const events = ok<{ type: { name: string }; props: unknown }[]>(
      await app.api.get(`/api/v2/users/${v.boot.visitor.id}/events`),
    );
    expect(events.map((e) => e.type.name)).toEqual(["$page_view", name]);
    expect(events[1]!.props).toEqual({ plan: "pro" });
  });

  it("sets presence, sessions and the first referrer, and does not write every heartbeat", async ({
    server,
    app,
  }) => {
    const v = await bootTestVisitor(server, app);
    const id = BigInt(v.boot.visitor.id);
    const beat = (json: Record<string, unknown>) => v.api.postJson("/api/v2/messenger/heartbeat", json);
    const first = {
      url: "http://127.0.0.1:1/a",
      title: "A",
      referrer: "http://127.0.0.1:2/r",
      timezone_offset: 180,
    };
    expect(ok<Heartbeat>(await beat(first))).toEqual({ unread: 0, operators_online: false, opens_at: null });
    const row = await server.db.user.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({
      presence: "online",
      sessions: 1,
      initialReferrer: "http://127.0.0.1:2/r",
      timezoneOffset: 180,
      presenceDetails: { page_url: "http://127.0.0.1:1/a", page_title: "A" },
    });
    expect(row.lastSeen).not.toBeNull();
    const presence = await server.db.eventLogEntry.count({
      where: { userId: id, type: "user_presence_changed" },
    });
    expect(presence).toBe(1);

    // The same page again, many times: nothing written.
    for (let i = 0; i < 5; i++) ok(await beat({ ...first, referrer: "http://127.0.0.1:3/other" }));
    const same = await server.db.user.findUniqueOrThrow({ where: { id } });
    expect(same.updated).toEqual(row.updated);
    expect(same.lastHeartbeat).toEqual(row.lastHeartbeat);
    expect(same.initialReferrer).toBe("http://127.0.0.1:2/r");

    // Another page is shown to operators at once; the referrer stays the first one; still one session.
    ok(await beat({ url: "http://127.0.0.1:1/b", referrer: "http://127.0.0.1:3/other" }));
    const moved = await server.db.user.findUniqueOrThrow({ where: { id } });
    expect(moved.presenceDetails).toMatchObject({ page_url: "http://127.0.0.1:1/b" });
    expect(moved.lastHeartbeat!.getTime()).toBeGreaterThan(row.lastHeartbeat!.getTime());
    expect(moved).toMatchObject({ sessions: 1, initialReferrer: "http://127.0.0.1:2/r" });
  });

  it("answers operators_online when an operator of the app has the panel open", async ({
    server,
    app,
    sockets,
  }) => {
    const v = await bootTestVisitor(server, app);
    const beat = async () => ok<Heartbeat>(await v.api.postJson("/api/v2/messenger/heartbeat", {}));
    forgetOperatorsOnline(app.app.id);
    expect((await beat()).operators_online).toBe(false);
    // Called from the site's pages: the answer is readable there (the app lists no origins: every one).
    const cross = await server.call("/api/v2/messenger/heartbeat", {
      method: "POST",
      headers: { authorization: `Bearer ${v.boot.access_token}`, origin: "http://127.0.0.1:9" },
      json: {},
    });
    expect(cross.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:9");
    const session = await makeSession(server.db, app.admin.id);
    const socket = await sockets.open({ cookie: session.cookie });
    forgetOperatorsOnline(app.app.id);
    expect((await beat()).operators_online).toBe(true);
    // Connected but Away: nobody answers now, and the messenger says so.
    const operator = client(server, session);
    const away = async (status: string) =>
      ok(await operator.postJson(`/api/v2/apps/${app.app.id}/availability`, { status }));
    await away("away");
    forgetOperatorsOnline(app.app.id);
    expect((await beat()).operators_online).toBe(false);
    await away("available");
    forgetOperatorsOnline(app.app.id);
    expect((await beat()).operators_online).toBe(true);
    // Outside the app's office hours (closed all week): away, however Available the operators.
    const hours = `/api/v2/apps/${app.app.id}/office_hours`;
    ok(await app.api.postJson(hours, { office_hours: { weekly: {} } }));
    forgetOperatorsOnline(app.app.id);
    expect((await beat()).operators_online).toBe(false);
    ok(await app.api.postJson(hours, { office_hours: null }));
    forgetOperatorsOnline(app.app.id);
    expect((await beat()).operators_online).toBe(true);
    socket.disconnect();
    forgetOperatorsOnline(app.app.id);
    await expect.poll(async () => (await beat()).operators_online).toBe(false);
  });

  it("answers opens_at outside office hours: when they open next, for the frame's away line", async ({
    server,
    app,
    sockets,
  }) => {
    const v = await bootTestVisitor(server, app);
    const beat = async () => {
      forgetOperatorsOnline(app.app.id);
      return ok<Heartbeat>(await v.api.postJson("/api/v2/messenger/heartbeat", {}));
    };
    const session = await makeSession(server.db, app.admin.id);
    const socket = await sockets.open({ cookie: session.cookie });
    expect(await beat()).toMatchObject({ operators_online: true, opens_at: null });
    const hours = `/api/v2/apps/${app.app.id}/office_hours`;
    // Closed now (UTC, the app's zone), open from three hours on.
    const later = hoursOpeningIn(3 * 3_600_000);
    ok(await app.api.postJson(hours, { office_hours: later.hours }));
    expect(await beat()).toMatchObject({ operators_online: false, opens_at: later.opensAt.toISOString() });
    // Read in Kolkata (5:30 ahead of UTC), this week's hour came two and a half hours ago: next week's, then.
    ok(await app.api.postJson(`/api/v2/apps/${app.app.id}/settings`, { time_zone: "Asia/Kolkata" }));
    const nextWeek = later.opensAt.getTime() - 5.5 * 3_600_000 + 7 * 86_400_000;
    expect((await beat()).opens_at).toBe(new Date(nextWeek).toISOString());
    ok(await app.api.postJson(`/api/v2/apps/${app.app.id}/settings`, { time_zone: "UTC" }));
    // Closed for good (no range in the next 14 days): away, with no time to tell.
    ok(await app.api.postJson(hours, { office_hours: { weekly: {} } }));
    expect(await beat()).toMatchObject({ operators_online: false, opens_at: null });
    // Open hours, nobody Available: away, but not because of the hours.
    ok(await app.api.postJson(hours, { office_hours: null }));
    socket.disconnect();
    await expect.poll(async () => (await beat()).operators_online).toBe(false);
    expect((await beat()).opens_at).toBeNull();
  });
});

describe("messenger logout", () => {
  it("ends the visitor's tokens and unbinds its device: the next boot is a new anonymous visitor", async ({
    server,
    app,
    sockets,
  }) => {
    const v = await bootTestVisitor(server, app);
    ok(await v.api.postJson("/api/v2/messenger/identify", { email: "leaving@example.test" }));
    const closed = watchDisconnect(await sockets.open({ token: v.boot.access_token }));
    expect(ok(await v.api.postJson("/api/v2/messenger/logout"))).toEqual({});
    expect(await closed.within(5000)).toBeTruthy();
    await expectTokensRevoked(server, v.boot);
    const again = await bootTestVisitor(server, app, { deviceId: v.deviceId });
    expect(again.boot.visitor.id).not.toBe(v.boot.visitor.id);
    expect(again.boot.visitor).toMatchObject({ anonymous: true, email: null });
    // The visitor itself stays, a lead the operators keep.
    const kept = await server.db.user.findUniqueOrThrow({ where: { id: BigInt(v.boot.visitor.id) } });
    expect(kept.email).toBe("leaving@example.test");
    const fresh = ok<TokenPairData>(
      await server.call("/api/v2/messenger/refresh", {
        method: "POST",
        json: { refresh_token: again.boot.refresh_token },
      }),
    );
    await visitorOf(server, fresh.access_token);
  });
});
