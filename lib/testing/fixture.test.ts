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
});
