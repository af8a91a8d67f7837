import { describe, expect } from "vitest";
import type { Socket } from "socket.io-client";
import type { TestServer } from "../testing/server";
import { it, type TestSockets } from "../testing/fixture";
import { makeAdmin } from "../testing/factories";
import { errorOf, ok } from "../users/testing";
import { isAnyoneAvailable, sweepIdleOperators } from "./availability";
import type { AdminAvailability } from "./schemas";

interface Msg {
  channel: string;
  message: AdminAvailability;
}

async function listen(
  sockets: TestSockets,
  cookie: string,
  channel: string,
): Promise<{ socket: Socket; got: Msg[] }> {
  const socket = await sockets.open({ cookie });
  const got: Msg[] = [];
  socket.on("message", (m: Msg) => got.push(m));
  const ack = (await socket.emitWithAck("subscribe", { channels: [channel] })) as { subscribed: string[] };
  expect(ack.subscribed).toEqual([channel]);
  return { socket, got };
}

async function until(cond: () => boolean, what: string, ms = 15_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const row = (s: TestServer, appId: bigint, adminId: bigint) =>
  s.db.appAdmin.findUniqueOrThrow({ where: { appId_adminId: { appId, adminId } } });

describe("operator availability", () => {
  it("sets Away and Available for oneself; teammates read it and hear it live", async ({
    server: s,
    app: a,
    sockets,
    operator,
  }) => {
    const opA = await makeAdmin(s.db, { appId: a.app.id });
    const opB = await makeAdmin(s.db, { appId: a.app.id });
    const [sa, sb] = [await operator(opA.id), await operator(opB.id)];
    const path = `/api/apps/${a.app.id}/availability`;
    const { got } = await listen(sockets, sb.cookie, `admin_availability.${a.app.id}`);

    const away = ok<AdminAvailability>(await sa.postJson(path, { status: "away" }));
    expect(away).toMatchObject({ admin_id: Number(opA.id), app: Number(a.app.id), availability: "away" });
    await until(() => got.some((m) => m.message.admin_id === Number(opA.id)), "the away event");
    expect(got[0]?.message).toMatchObject({ availability: "away", admin_id: Number(opA.id) });

    const list = ok<AdminAvailability[]>(await sb.get(path));
    expect(list.find((x) => x.admin_id === Number(opA.id))?.availability).toBe("away");
    expect(list.find((x) => x.admin_id === Number(opB.id))?.availability).toBe("available");

    // Setting the same status again announces nothing.
    ok(await sa.postJson(path, { status: "away" }));
    ok(await sa.postJson(path, { status: "available" }));
    // Events arrive in the log's order: a second "away" would have come before this "available".
    await until(() => got.some((m) => m.message.availability === "available"), "the available event");
    expect(got.map((m) => m.message.availability)).toEqual(["away", "available"]);
    expect((await row(s, a.app.id, opA.id)).lastActive).not.toBeNull();
  });

  it("is the operator's own: API keys, other apps and bad statuses are refused", async ({
    server: s,
    app: a,
    other: b,
    sockets,
    operator,
  }) => {
    const op = await makeAdmin(s.db, { appId: a.app.id });
    const sess = await operator(op.id);
    errorOf(
      await a.api.postJson(`/api/apps/${a.app.id}/availability`, { status: "away" }),
      403,
      "PermissionDenied",
    );
    errorOf(
      await sess.postJson(`/api/apps/${b.app.id}/availability`, { status: "away" }),
      403,
      "PermissionDenied",
    );
    errorOf(
      await sess.postJson(`/api/apps/${a.app.id}/availability`, { status: "busy" }),
      400,
      "ValidationError",
    );
    errorOf(await a.api.postJson(`/api/apps/${a.app.id}/activity`, {}), 403, "PermissionDenied");
    // A token with conversations-read reads it; the other app's channel is refused to this operator.
    expect(ok<unknown[]>(await a.api.get(`/api/apps/${a.app.id}/availability`)).length).toBeGreaterThan(0);
    const socket = await sockets.open({ cookie: sess.cookie });
    const ack = (await socket.emitWithAck("subscribe", { channels: [`admin_availability.${b.app.id}`] })) as {
      refused: string[];
    };
    expect(ack.refused).toEqual([`admin_availability.${b.app.id}`]);
  });

  it("coalesces activity pings to one write a minute", async ({ server: s, app: a, operator }) => {
    const op = await makeAdmin(s.db, { appId: a.app.id });
    const sess = await operator(op.id);
    ok(await sess.postJson(`/api/apps/${a.app.id}/activity`, {}));
    const first = (await row(s, a.app.id, op.id)).lastActive;
    expect(first).not.toBeNull();
    ok(await sess.postJson(`/api/apps/${a.app.id}/activity`, {}));
    expect((await row(s, a.app.id, op.id)).lastActive).toEqual(first);
    const old = new Date(Date.now() - 61_000);
    await s.db.appAdmin.update({
      where: { appId_adminId: { appId: a.app.id, adminId: op.id } },
      data: { lastActive: old },
    });
    ok(await sess.postJson(`/api/apps/${a.app.id}/activity`, {}));
    expect((await row(s, a.app.id, op.id)).lastActive!.getTime()).toBeGreaterThan(old.getTime() + 30_000);
  });

  it("sets idle operators Away after the configured minutes and announces it; the messenger asks who is there", async ({
    server: s,
    other: b,
    sockets,
    operator,
  }) => {
    const op = await makeAdmin(s.db, { appId: b.app.id });
    const watcher = await operator(b.admin.id);
    const { got } = await listen(sockets, watcher.cookie, `admin_availability.${b.app.id}`);
    const key = { appId_adminId: { appId: b.app.id, adminId: op.id } };
    await s.db.appAdmin.update({ where: key, data: { lastActive: new Date(Date.now() - 16 * 60_000) } });
    // The default admin was active a minute ago: not idle.
    await s.db.appAdmin.update({
      where: { appId_adminId: { appId: b.app.id, adminId: b.admin.id } },
      data: { lastActive: new Date(Date.now() - 60_000) },
    });
    expect(await sweepIdleOperators(s.db, 15)).toBeGreaterThanOrEqual(1);
    expect((await s.db.appAdmin.findUniqueOrThrow({ where: key })).availability).toBe("away");
    expect((await row(s, b.app.id, b.admin.id)).availability).toBe("available");
    await until(() => got.some((m) => m.message.admin_id === Number(op.id)), "the idle away event");
    expect(await isAnyoneAvailable(s.db, b.app.id)).toBe(true);
    await s.db.appAdmin.update({
      where: { appId_adminId: { appId: b.app.id, adminId: b.admin.id } },
      data: { lastActive: new Date(Date.now() - 20 * 60_000) },
    });
    await sweepIdleOperators(s.db, 15);
    expect(await isAnyoneAvailable(s.db, b.app.id)).toBe(false);
  });
});
