import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { makeAdmin, makeApp, makeSession } from "../testing/factories";
import { client } from "../testing/http";
import { errorOf, ok } from "../users/testing";

describe("GET /apps/{id}/admins", () => {
  it("lists the app's operators, oldest first, to a token and to a member's session", async ({
    server: s,
  }) => {
    const a = await makeApp(s.db);
    const olga = await makeAdmin(s.db, { appId: a.app.id, name: "Olga" });
    await makeAdmin(s.db, { name: "Not a member" });
    const list = ok<{ id: number; name: string; type: string; email: string; role: string }[]>(
      await client(s, a.token).get(`/api/apps/${a.app.id}/admins`),
    );
    expect(list.map((x) => x.id)).toEqual([Number(a.admin.id), Number(olga.id)]);
    expect(list[1]).toMatchObject({ name: "Olga", type: "admin", email: olga.email, role: "operator" });

    const sess = await makeSession(s.db, olga.id);
    const bySession = ok<unknown[]>(
      await s.call(`/api/apps/${a.app.id}/admins`, { headers: { cookie: sess.cookie } }),
    );
    expect(bySession).toHaveLength(2);
  });

  it("refuses another app's token and has no v1 form", async ({ server: s }) => {
    const a = await makeApp(s.db);
    const b = await makeApp(s.db);
    errorOf(await client(s, b.token).get(`/api/apps/${a.app.id}/admins`), 403, "PermissionDenied");
    expect((await client(s, a.token).get(`/api/v1/apps/${a.app.id}/admins`)).status).toBe(404);
  });
});
