import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it, type TestOperator } from "../testing/fixture";
import { makeAdmin, makeApp } from "../testing/factories";
import { watchDisconnect } from "../testing/socket";

/** An app whose default admin owns it, logged in. */
async function ownedApp(s: TestServer, operator: (adminId: bigint) => Promise<TestOperator>) {
  const a = await makeApp(s.db);
  await s.db.appAdmin.update({
    where: { appId_adminId: { appId: a.app.id, adminId: a.admin.id } },
    data: { role: "owner" },
  });
  return { ...a, owner: await operator(a.admin.id) };
}

describe("access taken away ends the sockets it authorised", () => {
  it("a revoked API key's sockets end within a second; another key's stay", async ({
    server: s,
    sockets,
    operator,
  }) => {
    const a = await ownedApp(s, operator);
    const keyId = (await s.db.apiKey.findFirstOrThrow({ where: { appId: a.app.id } })).id;
    const revoked = await sockets.open({ token: a.token });
    const other = await makeApp(s.db);
    const kept = await sockets.open({ token: other.token });
    const dropped = watchDisconnect(revoked);

    expect((await a.owner.del(`/api/apps/${a.app.id}/api_keys/${keyId}`)).status).toBe(200);
    expect(await dropped.within(1000)).toBe("io server disconnect");
    await expect(sockets.open({ token: a.token })).rejects.toThrow(/AuthenticationFailed/);
    const ack = (await kept.emitWithAck("subscribe", { channels: [`conversation.${other.app.id}`] })) as {
      subscribed: string[];
    };
    expect(ack.subscribed).toEqual([`conversation.${other.app.id}`]);
  });

  it("an operator removed from an app loses their sockets within a second", async ({
    server: s,
    sockets,
    operator,
  }) => {
    const a = await ownedApp(s, operator);
    const op = await makeAdmin(s.db, { appId: a.app.id });
    const socket = await sockets.open({ cookie: (await operator(op.id)).cookie });
    const dropped = watchDisconnect(socket);

    expect((await a.owner.del(`/api/apps/${a.app.id}/admins/${op.id}`)).status).toBe(200);
    expect(await dropped.within(1000)).toBe("io server disconnect");
  });
});
