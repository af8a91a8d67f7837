import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { makeAdmin, makeApp, makeSession, makeUser } from "../testing/factories";
import { client } from "../testing/http";
import { errorOf, ok } from "./testing";

interface Note {
  id: number;
  user: number;
  app: number;
  body: string;
  created: number;
  admin: { id: number; name: string; type: string } | null;
}

describe("user notes", () => {
  it("adds (as the operator, or the app's default admin for tokens), lists newest first and deletes", async ({
    server: s,
    app: a,
  }) => {
    const u = await makeUser(s.db, a.app.id);
    const byToken = ok<Note>(await a.api.postJson(`/api/users/${u.id}/notes`, { body: "First call" }));
    expect(byToken).toMatchObject({
      user: Number(u.id),
      app: Number(a.app.id),
      body: "First call",
      admin: { id: Number(a.admin.id), type: "admin" },
    });
    const op = await makeAdmin(s.db, { appId: a.app.id, name: "Olga" });
    const sess = await makeSession(s.db, op.id);
    const byAdmin = ok<Note>(
      await s.call(`/api/users/${u.id}/notes`, {
        method: "POST",
        headers: { cookie: sess.cookie, "x-csrf-token": sess.csrf },
        json: { body: "Second" },
      }),
    );
    expect(byAdmin.admin).toMatchObject({ id: Number(op.id), name: "Olga" });
    expect(ok<Note[]>(await a.api.get(`/api/users/${u.id}/notes`)).map((n) => n.body)).toEqual([
      "Second",
      "First call",
    ]);
    expect(ok(await a.api.del(`/api/users/${u.id}/notes/${byToken.id}`))).toEqual({});
    expect(ok<Note[]>(await a.api.get(`/api/v1/users/${u.id}/notes`)).map((n) => n.id)).toEqual([byAdmin.id]);
    errorOf(await a.api.del(`/api/users/${u.id}/notes/${byToken.id}`), 400, "LookupError");
    const other = await makeUser(s.db, a.app.id);
    errorOf(await a.api.del(`/api/users/${other.id}/notes/${byAdmin.id}`), 400, "LookupError");
  });

  it("works by user ID and in v1, and refuses bad notes", async ({ server: s, app: a, scoped }) => {
    const u = await makeUser(s.db, a.app.id);
    ok(await a.api.postJson(`/api/v1/users/${u.userId}/notes`, { by_user_id: true, body: "v1 note" }));
    expect(ok<Note[]>(await a.api.get(`/api/users/${u.id}/notes`))).toHaveLength(1);
    expect(
      errorOf(await a.api.postJson(`/api/users/${u.id}/notes`, {}), 400, "ValidationError").error_fields,
    ).toEqual({ body: "is required" });
    expect(
      errorOf(await a.api.postJson(`/api/users/${u.id}/notes`, { body: "" }), 400, "ValidationError")
        .error_fields,
    ).toHaveProperty("body");
    expect(
      errorOf(
        await a.api.postJson(`/api/users/${u.id}/notes`, { body: "x".repeat(10_001) }),
        400,
        "ValidationError",
      ).error_fields,
    ).toHaveProperty("body");
    expect(
      errorOf(await a.api.del(`/api/users/${u.id}/notes/abc`), 400, "ValidationError").error_fields,
    ).toHaveProperty("note_id");
    errorOf(await a.api.get(`/api/users/77777777/notes`), 400, "LookupError");
    const narrow = await scoped(["user-read"]);
    errorOf(await narrow.postJson(`/api/v1/users/${u.id}/notes`, { body: "x" }), 403, "PermissionDenied");
  });
});

describe("user tags", () => {
  it("adds and removes, succeeding also when nothing changes", async ({ server: s, app: a }) => {
    const u = await makeUser(s.db, a.app.id);
    expect(ok(await a.api.postJson(`/api/users/${u.id}/tags`, { tag: "vip" }))).toEqual({ tags: ["vip"] });
    expect(ok(await a.api.postJson(`/api/users/${u.id}/tags`, { tag: "vip" }))).toEqual({ tags: ["vip"] });
    expect(ok(await a.api.postJson(`/api/users/${u.id}/tags`, { tag: "beta" }))).toEqual({
      tags: ["beta", "vip"],
    });
    expect(ok(await a.api.del(`/api/users/${u.id}/tags`, { tag: "vip" }))).toEqual({ tags: ["beta"] });
    expect(ok(await a.api.del(`/api/users/${u.id}/tags`, { tag: "vip" }))).toEqual({ tags: ["beta"] });
    expect(ok(await a.api.get(`/api/users/${u.id}`, { tags: true })).tags).toEqual(["beta"]);
    expect(ok(await a.api.postJson(`/api/v1/users/${u.id}/tags`, { tag: "v1" }))).toEqual({});
    expect(ok(await a.api.del(`/api/v1/users/${u.id}/tags`, { tag: "v1" }))).toEqual({});
  });

  it("refuses bad tags", async ({ server: s, app: a }) => {
    const u = await makeUser(s.db, a.app.id);
    for (const tag of ["", "a,b", "x".repeat(256)]) {
      expect(
        errorOf(await a.api.postJson(`/api/users/${u.id}/tags`, { tag }), 400, "ValidationError")
          .error_fields,
      ).toHaveProperty("tag");
    }
    expect(errorOf(await a.api.del(`/api/users/${u.id}/tags`), 400, "ValidationError").error_fields).toEqual({
      tag: "is required",
    });
    errorOf(
      await client(s, (await makeApp(s.db)).token).postJson(`/api/users/${u.id}/tags`, { tag: "x" }),
      403,
      "PermissionDenied",
    );
  });
});
