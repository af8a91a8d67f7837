import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";
import { makeApp, makeUser, unique } from "../testing/factories";
import { catalog } from "../compose/catalog";
import { openApiDocument } from "./openapi";
import { WAIT_MS } from "./idempotency";
import { Prisma } from "../db/generated/client";

const post = (s: TestServer, a: TestApp, path: string, json: unknown, key?: string, token = a.token) =>
  s.call(path, {
    method: "POST",
    json,
    headers: { Authorization: `Token ${token}`, ...(key === undefined ? {} : { "Idempotency-Key": key }) },
  });
const partsOf = (s: TestServer, conv: bigint, body: string) =>
  s.db.conversationPart.count({ where: { conversationId: conv, body } });

describe("Idempotency-Key", () => {
  it("replays the first answer to a repeat and writes nothing more", async ({
    server: s,
    app: a,
    conversation,
  }) => {
    const key = unique("k");
    const body = unique("reply");
    const first = await post(s, a, `/api/conversations/${conversation.id}/reply`, { body }, key);
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const again = await post(s, a, `/api/conversations/${conversation.id}/reply`, { body }, key);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.headers.get("X-API-Version")).toBe(first.headers.get("X-API-Version"));
    expect(again.headers.get("Content-Type")).toBe(first.headers.get("Content-Type"));
    expect(again.headers.get("X-Request-Id")).not.toBe(first.headers.get("X-Request-Id"));
    expect(await partsOf(s, conversation.id, body)).toBe(1);
  });

  it("runs concurrent repeats once: each waits for the first and gets its answer", async ({
    server: s,
    app: a,
    conversation,
  }) => {
    const key = unique("k");
    const body = unique("reply");
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        post(s, a, `/api/conversations/${conversation.id}/reply`, { body }, key),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((r) => r.text)).size).toBe(1);
    expect(answers.filter((r) => r.headers.get("Idempotent-Replayed") === "true")).toHaveLength(7);
    expect(await partsOf(s, conversation.id, body)).toBe(1);
  });

  it("refuses a key reused for another request, and keys out of format", async ({
    server: s,
    app: a,
    conversation,
  }) => {
    const key = unique("k");
    expect(
      (await post(s, a, `/api/conversations/${conversation.id}/reply`, { body: unique("a") }, key)).status,
    ).toBe(200);
    const other = await post(s, a, `/api/conversations/${conversation.id}/reply`, { body: unique("b") }, key);
    expect([other.status, other.body.meta.error]).toEqual([400, "ValidationError"]);
    expect(other.body.meta.error_fields).toEqual({ "Idempotency-Key": "was used for a different request" });
    for (const bad of ["x".repeat(256), "caf\u00e9"]) {
      const body = unique("bad");
      const r = await post(s, a, `/api/conversations/${conversation.id}/reply`, { body }, bad);
      expect([r.status, r.body.meta.error_fields]).toEqual([
        400,
        { "Idempotency-Key": "must be 1 to 255 printable ASCII characters" },
      ]);
      expect(await partsOf(s, conversation.id, body)).toBe(0);
    }
    expect(
      (
        await post(
          s,
          a,
          `/api/conversations/${conversation.id}/reply`,
          { body: unique("c") },
          "x".repeat(255),
        )
      ).status,
    ).toBe(200);
  });

  it("keeps keys per token, and replays error answers too", async ({ server: s, app: a, conversation }) => {
    const key = unique("k");
    const body = unique("reply");
    const other = await makeApp(s.db);
    const u = await makeUser(s.db, other.app.id);
    const started = await post(s, a, `/api/users/${u.id}/startconversation`, { body }, key, other.token);
    expect(started.status).toBe(200);
    const mine = await post(s, a, `/api/conversations/${conversation.id}/reply`, { body }, key);
    expect(mine.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await partsOf(s, conversation.id, body)).toBe(1);
    const missingKey = unique("k");
    const missing = await post(s, a, `/api/conversations/999999999/reply`, { body }, missingKey);
    expect(missing.status).toBeGreaterThanOrEqual(400);
    expect(missing.status).toBeLessThan(500);
    const again = await post(s, a, `/api/conversations/999999999/reply`, { body }, missingKey);
    expect([again.status, again.text, again.headers.get("Idempotent-Replayed")]).toEqual([
      missing.status,
      missing.text,
      "true",
    ]);
  });

  it("forgets a key after 24 hours", async ({ server: s, app: a, conversation }) => {
    const key = unique("k");
    const body = unique("reply");
    expect((await post(s, a, `/api/conversations/${conversation.id}/reply`, { body }, key)).status).toBe(200);
    const kept = await post(s, a, `/api/conversations/${conversation.id}/reply`, { body }, key);
    expect(kept.headers.get("Idempotent-Replayed")).toBe("true");
    await s.db.idempotencyKey.updateMany({
      where: { key },
      data: { created: new Date(Date.now() - 25 * 3_600_000) },
    });
    const later = await post(s, a, `/api/conversations/${conversation.id}/reply`, { body }, key);
    expect([later.status, later.headers.get("Idempotent-Replayed")]).toEqual([200, null]);
    expect(await partsOf(s, conversation.id, body)).toBe(2);
  });

  it("never runs a key again whose first request left no answer: in progress, then interrupted", async ({
    server: s,
    app: a,
    conversation,
  }) => {
    const body = unique("reply");
    const path = `/api/conversations/${conversation.id}/reply`;
    // What a process killed between reservation and answer leaves: the key reserved for this very request.
    const reserve = async (key: string, ageMs: number) => {
      const first = await post(s, a, path, { body }, key);
      expect(first.status).toBe(200);
      await s.db.idempotencyKey.updateMany({
        where: { key },
        data: { status: null, headers: Prisma.DbNull, body: null, created: new Date(Date.now() - ageMs) },
      });
    };
    const fresh = unique("k");
    await reserve(fresh, 0);
    const t = Date.now();
    const waiting = await post(s, a, path, { body }, fresh);
    expect(Date.now() - t).toBeGreaterThanOrEqual(WAIT_MS - 200);
    expect([waiting.status, waiting.body.meta.error_fields]).toEqual([
      400,
      { "Idempotency-Key": "in progress" },
    ]);
    const old = unique("k");
    await reserve(old, 120_000);
    const interrupted = await post(s, a, path, { body }, old);
    expect([interrupted.status, interrupted.body.meta.error_fields]).toEqual([
      400,
      { "Idempotency-Key": "interrupted" },
    ]);
    expect(await partsOf(s, conversation.id, body)).toBe(2);
  });

  it("is a header parameter of every authenticated POST in the OpenAPI document", () => {
    type Op = { parameters?: { name: string; in: string }[] };
    const doc = openApiDocument(catalog, 2) as { paths: Record<string, Record<string, Op>> };
    const has = (op: Op | undefined) =>
      op?.parameters?.some((p) => p.name === "Idempotency-Key" && p.in === "header") ?? false;
    expect(has(doc.paths["/conversations/{id}/reply"]?.post)).toBe(true);
    expect(has(doc.paths["/conversations/{id}/parts"]?.get)).toBe(false);
  });
});
