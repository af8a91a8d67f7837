import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";
import { makeAdmin, makeSession, makeToken, unique } from "../testing/factories";
import { client, type Client } from "../testing/http";
import { errorOf, ok } from "../users/testing";
import type { SavedReply } from "./schemas";

let s: TestServer;
let a: TestApp;
let api: Client;
let base: string;

it.beforeAll(({ server, app }) => {
  s = server;
  a = app;
  api = app.api;
  base = `/api/apps/${a.app.id}/saved_replies`;
});

const shortcut = () => unique("s").toLowerCase();
const create = async (over: Partial<Record<"shortcut" | "title" | "body", string>> = {}) =>
  ok<SavedReply>(
    await api.postJson(base, {
      shortcut: shortcut(),
      title: "Greeting",
      body: "Hi {{visitor_name|there}}",
      ...over,
    }),
  );

describe("saved replies", () => {
  it("creates, lists by shortcut, updates and deletes", async () => {
    const b = await create({ shortcut: "zz-bye", title: "Bye", body: "Bye {{visitor_name}}" });
    const h = await create({ shortcut: "aa-hello" });
    expect(h).toMatchObject({
      app: Number(a.app.id),
      shortcut: "aa-hello",
      body: "Hi {{visitor_name|there}}",
    });
    expect(h.created_by).toBeNull();
    const listed = ok<SavedReply[]>(await api.get(base)).map((r) => r.shortcut);
    expect(listed.indexOf("aa-hello")).toBeLessThan(listed.indexOf("zz-bye"));
    const changed = ok<SavedReply>(await api.postJson(`${base}/${b.id}`, { title: "Farewell" }));
    expect(changed).toMatchObject({ shortcut: "zz-bye", title: "Farewell", body: "Bye {{visitor_name}}" });
    ok(await api.del(`${base}/${b.id}`));
    expect(ok<SavedReply[]>(await api.get(base)).map((r) => r.id)).not.toContain(b.id);
    errorOf(await api.del(`${base}/${b.id}`), 400, "LookupError");
    errorOf(await api.postJson(`${base}/${b.id}`, { title: "x" }), 400, "LookupError");
  });

  it("records the operator who wrote it, and lowercases a shortcut typed with a slash", async () => {
    const op = await makeAdmin(s.db, { appId: a.app.id });
    const panel = client(s, await makeSession(s.db, op.id));
    const r = ok<SavedReply>(
      await panel.postJson(base, { shortcut: "/Refund-" + shortcut(), title: "T", body: "B" }),
    );
    expect(r.created_by).toBe(Number(op.id));
    expect(r.shortcut).toMatch(/^refund-s-/);
  });

  it("keeps shortcuts unique per app, also under concurrent creates, and not across apps", async ({
    other,
  }) => {
    const sc = shortcut();
    const all = await Promise.all(
      Array.from({ length: 4 }, () => api.postJson(base, { shortcut: sc, title: "T", body: "B" })),
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
    const mine = await create();
    const clash = errorOf(await api.postJson(`${base}/${mine.id}`, { shortcut: sc }), 400, "ValidationError");
    expect(clash.error_fields?.shortcut).toMatch(/taken/);
  });

  it("refuses bad input clearly", async () => {
    const bad = async (body: Record<string, unknown>) =>
      errorOf(await api.postJson(base, body), 400, "ValidationError").error_fields;
    expect(await bad({ title: "T", body: "B" })).toEqual({ shortcut: "is required" });
    expect(await bad({ shortcut: "has space", title: "T", body: "B" })).toHaveProperty("shortcut");
    expect(await bad({ shortcut: "x".repeat(33), title: "T", body: "B" })).toHaveProperty("shortcut");
    expect(await bad({ shortcut: "ok-Ü", title: "T", body: "B" })).toHaveProperty("shortcut");
    expect(await bad({ shortcut: shortcut(), title: "  ", body: "B" })).toHaveProperty("title");
    expect(await bad({ shortcut: shortcut(), title: "T", body: "   " })).toHaveProperty("body");
    expect(await bad({ shortcut: shortcut(), title: "T", body: "x".repeat(10_001) })).toHaveProperty("body");
    ok(await api.postJson(base, { shortcut: "x".repeat(32), title: "T", body: "B" }));
  });

  it("keeps apps apart and asks tokens for conversation scopes", async ({ other }) => {
    const mine = await create();
    const stranger = other.api;
    errorOf(await stranger.get(base), 403, "PermissionDenied");
    errorOf(
      await stranger.postJson(base, { shortcut: shortcut(), title: "T", body: "B" }),
      403,
      "PermissionDenied",
    );
    errorOf(await stranger.del(`${base}/${mine.id}`), 403, "PermissionDenied");
    const theirs = `/api/apps/${other.app.id}/saved_replies/${mine.id}`;
    errorOf(await stranger.postJson(theirs, { title: "stolen" }), 400, "LookupError");

    const reader = client(s, await makeToken(s.db, a.app.id, ["conversations-read"]));
    expect(ok<SavedReply[]>(await reader.get(base)).map((r) => r.id)).toContain(mine.id);
    errorOf(
      await reader.postJson(base, { shortcut: shortcut(), title: "T", body: "B" }),
      403,
      "PermissionDenied",
    );
    errorOf(await reader.del(`${base}/${mine.id}`), 403, "PermissionDenied");
    const writer = client(s, await makeToken(s.db, a.app.id, ["conversations-write"]));
    errorOf(await writer.get(base), 403, "PermissionDenied");
    ok(await writer.postJson(`${base}/${mine.id}`, { body: "Changed" }));
  });

  it("is not served in v1", async () => {
    const r = await api.get(`/api/v1/apps/${a.app.id}/saved_replies`);
    expect(r.status).not.toBe(200);
  });
});
