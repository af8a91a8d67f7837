import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { errorOf, ok } from "../users/testing";
import { bootTestVisitor, publicKeyOf, newDeviceId } from "./testing";
import type { VisitorConversation, VisitorPart } from "./visitor-schemas";

const BASE = "/api/v2/messenger/conversations";
type Started = { conversation: VisitorConversation; part: VisitorPart };

describe("visitors and other visitors' conversations", () => {
  it("answers as for an unknown conversation (LookupError) to another visitor, on every endpoint, writing nothing", async ({
    server: s,
    app: a,
    other: b,
  }) => {
    const owner = await bootTestVisitor(s, a);
    const intruder = await bootTestVisitor(s, a);
    const stranger = await bootTestVisitor(s, b);
    const { conversation } = ok<Started>(await owner.api.postJson(BASE, { body: "private" }));
    const offer = ok<{ id: number }>(
      await a.api.postForm(`/api/v2/conversations/${conversation.id}/reply`, {
        body: "Pick one",
        actions: JSON.stringify([{ type: "quick_reply", body: "Yes" }]),
      }),
    );
    const id = conversation.id;
    const before = await s.db.conversationPart.count({ where: { conversationId: BigInt(id) } });
    for (const v of [intruder, stranger]) {
      const answers = [
        await v.api.get(`${BASE}/${id}/parts`),
        await v.api.postJson(`${BASE}/${id}/reply`, { body: "hijack" }),
        await v.api.postJson(`${BASE}/${id}/typing`, { body: "x" }),
        await v.api.postJson(`${BASE}/${id}/read`),
        await v.api.postJson(`${BASE}/${id}/quickreply`, { part: offer.id, action: 0 }),
      ];
      for (const r of answers) {
        errorOf(r, 400, "LookupError");
        expect(r.text).not.toContain("private");
      }
      // The same answer as for a conversation that does not exist.
      errorOf(await v.api.get(`${BASE}/999999999/parts`), 400, "LookupError");
      expect(ok<unknown[]>(await v.api.get(BASE))).toEqual([]);
    }
    expect(await s.db.conversationPart.count({ where: { conversationId: BigInt(id) } })).toBe(before);
    const stored = await s.db.conversationPart.findUniqueOrThrow({ where: { id: BigInt(offer.id) } });
    expect(stored.read).toBe(false);
    // The owner still can.
    ok(await owner.api.postJson(`${BASE}/${id}/read`));
    expect((await s.db.conversationPart.findUniqueOrThrow({ where: { id: BigInt(offer.id) } })).read).toBe(
      true,
    );
  });

  it("gives visitor tokens nothing of the operators' conversation endpoints, nor API keys these", async ({
    server: s,
    app: a,
  }) => {
    const v = await bootTestVisitor(s, a);
    const { conversation } = ok<Started>(await v.api.postJson(BASE, { body: "mine" }));
    const id = conversation.id;
    for (const r of [
      await v.api.get(`/api/v2/conversations/${id}`),
      await v.api.get(`/api/v2/conversations/${id}/parts`),
      await v.api.postForm(`/api/v2/conversations/${id}/reply`, { body: "x", type: "note" }),
      await v.api.postForm(`/api/v2/users/${v.boot.visitor.id}/startconversation`, { body: "x" }),
    ]) {
      errorOf(r, 401, "AuthenticationFailed");
    }
    errorOf(await a.api.get(BASE), 401, "AuthenticationFailed");
    errorOf(await a.api.postJson(`${BASE}/${id}/reply`, { body: "x" }), 401, "AuthenticationFailed");
  });
});

describe("CORS", () => {
  const ORIGIN = "http://127.0.0.1:4100";
  const OTHER = "http://127.0.0.1:4200";

  it("answers preflights of messenger paths, and no other path's", async ({ server: s, app: a }) => {
    const pre = await fetch(`${s.url}${BASE}/1/reply`, {
      method: "OPTIONS",
      headers: {
        Origin: OTHER,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe(OTHER);
    expect(pre.headers.get("access-control-allow-methods")).toContain("POST");
    expect(pre.headers.get("access-control-allow-headers")).toMatch(
      /Authorization.*Content-Type.*Idempotency-Key/,
    );
    expect(Number(pre.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    expect(pre.headers.get("access-control-allow-credentials")).toBeNull();
    const boot = await fetch(`${s.url}/api/v2/messenger/boot`, {
      method: "OPTIONS",
      headers: { Origin: OTHER },
    });
    expect(boot.headers.get("access-control-allow-origin")).toBe(OTHER);
    for (const path of [
      "/api/v2/ping",
      `/api/v2/apps/${a.app.id}/conversations`,
      "/api/v2/conversations/1",
    ]) {
      const r = await fetch(s.url + path, { method: "OPTIONS", headers: { Origin: OTHER } });
      expect(r.headers.get("access-control-allow-origin"), path).toBeNull();
    }
  });

  it("lets the app's allowed origins read answers, and no other origin", async ({
    server: s,
    app: a,
    other: b,
  }) => {
    const settings = `/api/v2/apps/${b.app.id}/messenger`;
    ok(await b.api.postJson(settings, { allowed_origins: [ORIGIN] }));
    try {
      const key = await publicKeyOf(b);
      const boot = (origin: string) =>
        fetch(`${s.url}/api/v2/messenger/boot`, {
          method: "POST",
          headers: { Origin: origin, "Content-Type": "application/json" },
          body: JSON.stringify({ key, device_id: newDeviceId() }),
        });
      const allowed = await boot(ORIGIN);
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get("access-control-allow-origin")).toBe(ORIGIN);
      expect(allowed.headers.get("vary")).toContain("Origin");
      expect(allowed.headers.get("access-control-expose-headers")).toContain("Retry-After");
      expect((await boot(OTHER)).headers.get("access-control-allow-origin")).toBeNull();
      // A visitor's calls: its app from its token.
      const v = await bootTestVisitor(s, b);
      const list = (origin: string) =>
        fetch(`${s.url}${BASE}`, {
          headers: { Origin: origin, Authorization: `Bearer ${v.boot.access_token}` },
        });
      expect((await list(ORIGIN)).headers.get("access-control-allow-origin")).toBe(ORIGIN);
      expect((await list(OTHER)).headers.get("access-control-allow-origin")).toBeNull();
      // An app that lists no origins runs everywhere.
      const open = await bootTestVisitor(s, a);
      const r = await fetch(`${s.url}${BASE}`, {
        headers: { Origin: OTHER, Authorization: `Bearer ${open.boot.access_token}` },
      });
      expect(r.headers.get("access-control-allow-origin")).toBe(OTHER);
      // Errors the frame must read (an expired token) carry it too; other endpoints never do.
      const denied = await fetch(`${s.url}${BASE}`, {
        headers: { Origin: OTHER, Authorization: "Bearer nope" },
      });
      expect(denied.status).toBe(401);
      expect(denied.headers.get("access-control-allow-origin")).toBe(OTHER);
      const api = await fetch(`${s.url}/api/v2/apps/${a.app.id}/conversations`, {
        headers: { Origin: OTHER, Authorization: `Token ${a.token}` },
      });
      expect(api.status).toBe(200);
      expect(api.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      ok(await b.api.postJson(settings, { allowed_origins: [] }));
    }
  });
});
