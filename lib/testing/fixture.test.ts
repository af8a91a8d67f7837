import { describe, expect } from "vitest";
import { it } from "./fixture";

let first: unknown;

describe("the server fixture", () => {
  it("starts one server per file and two apps of it", async ({ server, app, other }) => {
    first = server;
    expect(app.app.id).not.toBe(other.app.id);
    const r = await app.api.get(`/api/apps/${app.app.id}/channels`);
    expect(r.status).toBe(200);
    expect((await other.api.get(`/api/apps/${app.app.id}/channels`)).status).toBe(403);
  });

  it("hands the same server to every test of the file", ({ server }) => {
    expect(server).toBe(first);
  });

  it("opens sockets that the server accepts", async ({ sockets, app }) => {
    const socket = await sockets.open({ token: app.token });
    expect(socket.connected).toBe(true);
  });

  it("logs an operator in: the session's cookie and CSRF token, and a client that sends them", async ({
    app,
    operator,
  }) => {
    const op = await operator(app.admin.id);
    expect(op.cookie).toMatch(/^relay_session=/);
    expect(op.csrf).not.toBe("");
    expect((await op.postJson(`/api/apps/${app.app.id}/availability`, { status: "away" })).status).toBe(200);
  });

  it("makes clients of new tokens with only the scopes asked, of the app or of another", async ({
    app,
    other,
    scoped,
  }) => {
    const conversations = `/api/apps/${app.app.id}/conversations`;
    expect((await (await scoped(["user-read"])).get(conversations)).status).toBe(403);
    expect((await (await scoped(["conversations-read"])).get(conversations)).status).toBe(200);
    expect((await (await scoped(["conversations-read"], other)).get(conversations)).status).toBe(403);
  });
});
