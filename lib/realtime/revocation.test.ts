import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it, type TestSockets } from "../testing/fixture";
import { makeAdmin, makeApp, makeSession } from "../testing/factories";
import { watchDisconnect } from "../testing/socket";

let s: TestServer;
let open: TestSockets["open"];

it.beforeAll(({ server, sockets }) => {
  s = server;
  open = sockets.open;
});

/** An app whose default admin owns it, logged in. */
async function ownedApp() {
  const a = await makeApp(s.db);
  await s.db.appAdmin.update({
    where: { appId_adminId: { appId: a.app.id, adminId: a.admin.id } },
    data: { role: "owner" },
  });
  return { ...a, session: await makeSession(s.db, a.admin.id) };
}

function del(path: string, session: { cookie: string; csrf: string }) {
  return s.call(path, {
    method: "DELETE",
    headers: { cookie: session.cookie, "x-csrf-token": session.csrf },
  });
}

describe("access taken away ends the sockets it authorised", () => {
  it("a revoked API key's sockets end within a second; another key's stay", async () => {
    const a = await ownedApp();
    const keyId = (await s.db.apiKey.findFirstOrThrow({ where: { appId: a.app.id } })).id;
    const revoked = await open({ token: a.token });
    const other = await makeApp(s.db);
    const kept = await open({ token: other.token });
    const dropped = watchDisconnect(revoked);

    expect((await del(`/api/apps/${a.app.id}/api_keys/${keyId}`, a.session)).status).toBe(200);
    expect(await dropped.within(1000)).toBe("io server disconnect");
    await expect(open({ token: a.token })).rejects.toThrow(/AuthenticationFailed/);
    const ack = (await kept.emitWithAck("subscribe", { channels: [`conversation.${other.app.id}`] })) as {
      subscribed: string[];
    };
    expect(ack.subscribed).toEqual([`conversation.${other.app.id}`]);
  });

  it("an operator removed from an app loses their sockets within a second", async () => {
    const a = await ownedApp();
    const op = await makeAdmin(s.db, { appId: a.app.id });
    const socket = await open({ cookie: (await makeSession(s.db, op.id)).cookie });
    const dropped = watchDisconnect(socket);

    expect((await del(`/api/apps/${a.app.id}/admins/${op.id}`, a.session)).status).toBe(200);
    expect(await dropped.within(1000)).toBe("io server disconnect");
  });
});
