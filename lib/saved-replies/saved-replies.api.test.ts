import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { makeAdmin, makeSession, unique } from "../testing/factories";
import { client } from "../testing/http";
import { errorOf, ok } from "../users/testing";
import type { SavedReply } from "./schemas";

/** The app's saved replies. */
const base = (a: TestApp) => `/api/apps/${a.app.id}/saved_replies`;

const shortcut = () => unique("s").toLowerCase();
const create = async (a: TestApp, over: Partial<Record<"shortcut" | "title" | "body", string>> = {}) =>
  ok<SavedReply>(
    await a.api.postJson(base(a), {
      shortcut: shortcut(),
      title: "Greeting",
      body: "Hi {{visitor_name|there}}",
      ...over,
    }),
  );

describe("saved replies", () => {
  it("creates, lists by shortcut, updates and deletes", async ({ app: a }) => {
    const b = await create(a, { shortcut: "zz-bye", title: "Bye", body: "Bye {{visitor_name}}" });
    const h = await create(a, { shortcut: "aa-hello" });
    expect(h).toMatchObject({
      app: Number(a.app.id),
      shortcut: "aa-hello",
      body: "Hi {{visitor_name|there}}",
    });
    expect(h.created_by).toBeNull();
    const listed = ok<SavedReply[]>(await a.api.get(base(a))).map((r) => r.shortcut);
    expect(listed.indexOf("aa-hello")).toBeLessThan(listed.indexOf("zz-bye"));
    const changed = ok<SavedReply>(await a.api.postJson(`${base(a)}/${b.id}`, { title: "Farewell" }));
    expect(changed).toMatchObject({ shortcut: "zz-bye", title: "Farewell", body: "Bye {{visitor_name}}" });
    ok(await a.api.del(`${base(a)}/${b.id}`));
    expect(ok<SavedReply[]>(await a.api.get(base(a))).map((r) => r.id)).not.toContain(b.id);
    errorOf(await a.api.del(`${base(a)}/${b.id}`), 400, "LookupError");
    errorOf(await a.api.postJson(`${base(a)}/${b.id}`, { title: "x" }), 400, "LookupError");
  });

  it("records the operator who wrote it, and lowercases a shortcut typed with a slash", async ({
    server: s,
    app: a,
  }) => {
    const op = await makeAdmin(s.db, { appId: a.app.id });
    const panel = client(s, await makeSession(s.db, op.id));
    const r = ok<SavedReply>(
      await panel.postJson(base(a), { shortcut: "/Refund-" + shortcut(), title: "T", body: "B" }),
    );
    expect(r.created_by).toBe(Number(op.id));
    expect(r.shortcut).toMatch(/^refund-s-/);
  });

  it("keeps shortcuts unique per app, also under concurrent creates, and not across apps", async ({
    other,
    app: a,
  }) => {
    const sc = shortcut();
    const all = await Promise.all(
      Array.from({ length: 4 }, () => a.api.postJson(base(a), { shortcut: sc, title: "T", body: "B" })),
    );
    expect(all.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of all.filter((x) => x.status !== 200))
      expect(errorOf(r, 400, "ValidationError").error_fields).toHaveProperty("shortcut");
    ok(
      await other.api.postJson(`/api/apps/${other.app.id}/saved_replies`, {
        shortcut: sc,
        title: "T",
        body: "B",
      }),
    );
    const mine = await create(a);
    const clash = errorOf(
      await a.api.postJson(`${base(a)}/${mine.id}`, { shortcut: sc }),
      400,
      "ValidationError",
    );
    expect(clash.error_fields?.shortcut).toMatch(/taken/);
  });

  it("refuses bad input clearly", async ({ app: a }) => {
    const bad = async (body: Record<string, unknown>) =>
      errorOf(await a.api.postJson(base(a), body), 400, "ValidationError").error_fields;
    expect(await bad({ title: "T", body: "B" })).toEqual({ shortcut: "is required" });
    expect(await bad({ shortcut: "has space", title: "T", body: "B" })).toHaveProperty("shortcut");
    expect(await bad({ shortcut: "x".repeat(33), title: "T", body: "B" })).toHaveProperty("shortcut");
    expect(await bad({ shortcut: "ok-Ü", title: "T", body: "B" })).toHaveProperty("shortcut");
    expect(await bad({ shortcut: shortcut(), title: "  ", body: "B" })).toHaveProperty("title");
    expect(await bad({ shortcut: shortcut(), title: "T", body: "   " })).toHaveProperty("body");
    expect(await bad({ shortcut: shortcut(), title: "T", body: "x".repeat(10_001) })).toHaveProperty("body");
    ok(await a.api.postJson(base(a), { shortcut: "x".repeat(32), title: "T", body: "B" }));
  });

  it("keeps apps apart and asks tokens for conversation scopes", async ({ other, app: a, scoped }) => {
    const mine = await create(a);
    const stranger = other.api;
    errorOf(await stranger.get(base(a)), 403, "PermissionDenied");
    errorOf(
      await stranger.postJson(base(a), { shortcut: shortcut(), title: "T", body: "B" }),
      403,
      "PermissionDenied",
    );
    errorOf(await stranger.del(`${base(a)}/${mine.id}`), 403, "PermissionDenied");
    const theirs = `/api/apps/${other.app.id}/saved_replies/${mine.id}`;
    errorOf(await stranger.postJson(theirs, { title: "stolen" }), 400, "LookupError");

    const reader = await scoped(["conversations-read"]);
    expect(ok<SavedReply[]>(await reader.get(base(a))).map((r) => r.id)).toContain(mine.id);
    errorOf(
      await reader.postJson(base(a), { shortcut: shortcut(), title: "T", body: "B" }),
      403,
      "PermissionDenied",
    );
    errorOf(await reader.del(`${base(a)}/${mine.id}`), 403, "PermissionDenied");
    const writer = await scoped(["conversations-write"]);
    errorOf(await writer.get(base(a)), 403, "PermissionDenied");
    ok(await writer.postJson(`${base(a)}/${mine.id}`, { body: "Changed" }));
  });

  it("is not served in v1", async ({ app: a }) => {
    const r = await a.api.get(`/api/v1/apps/${a.app.id}/saved_replies`);
    expect(r.status).not.toBe(200);
  });
});
