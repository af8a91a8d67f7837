import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it } from "../testing/fixture";
import { makeAdmin, makeSession } from "../testing/factories";
import { conversationRow, fails, lastEventId, ok, startConversation } from "./testing";

const partCount = (s: TestServer, id: bigint) =>
  s.db.conversationPart.count({ where: { conversationId: id } });

describe("POST /conversations/{id}/reply", () => {
  it("replies as the logged-in operator from the panel (session + CSRF)", async ({ server: s, app: a }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const op = await makeAdmin(s.db, { appId: a.app.id });
    const session = await makeSession(s.db, op.id);
    const path = `/api/conversations/${conv.id}/reply`;
    const part = ok(
      await s.call(path, {
        method: "POST",
        headers: { cookie: session.cookie, "x-csrf-token": session.csrf },
        form: { body: "from the panel" },
      }),
    );
    expect(part).toMatchObject({ sent_via: "web_admin", from: { id: Number(op.id) } });
    fails(
      await s.call(path, { method: "POST", headers: { cookie: session.cookie }, form: { body: "x" } }),
      403,
      "PermissionDenied",
    );
    // The visitor's message, and the operator's reply with the assignment it made (assign_on_reply).
    expect(await partCount(s, conv.id)).toBe(3);
  });

  it("accepts JSON bodies and parameters in the query string", async ({ server: s, app: a }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const j = ok(
      await a.api.postJson(`/api/conversations/${conv.id}/reply`, {
        body: "json",
        random_id: 1,
        actions: [{ type: "quick_reply", body: "ok" }],
      }),
    );
    expect(j).toMatchObject({ body: "json", random_id: 1 });
    expect(ok(await a.api.postForm(`/api/conversations/${conv.id}/reply?body=query`)).body).toBe("query");
  });
});

describe("POST /v1/conversations/{id}/reply", () => {
  it("returns {id, id_assign_part} and takes v1's parameters", async ({ server: s, app: a }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const plain = ok(await a.api.postForm(`/api/v1/conversations/${conv.id}/reply`, { body: "v1" }));
    expect(Object.keys(plain)).toEqual(["id"]);
    const assigned = ok(
      await a.api.postForm(`/api/v1/conversations/${conv.id}/reply`, {
        body: "v1",
        auto_assign: String(a.admin.id),
        type: "note",
      }),
    );
    expect(Object.keys(assigned).sort()).toEqual(["id", "id_assign_part"]);
    const asUser = ok(
      await a.api.postForm(`/api/v1/conversations/${conv.id}/reply`, { body: "v1 user", from_user: "true" }),
    );
    const stored = await s.db.conversationPart.findUniqueOrThrow({
      where: { id: BigInt(asUser.id as number) },
    });
    expect(stored.type).toBe("reply_user");
  });

  it("requires body, conversations-write, and as-user for from_user", async ({
    server: s,
    app: a,
    scoped,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    fails(await a.api.postForm(`/api/v1/conversations/${conv.id}/reply`, {}), 400, "ValidationError", "body");
    fails(
      await a.api.postForm(`/api/v1/conversations/${conv.id}/reply`, { body: "x".repeat(10_001) }),
      400,
      "ReplyTooBig",
    );
    fails(
      await a.api.postForm(`/api/v1/conversations/${conv.id}/reply`, { body: "x", type: "article" }),
      400,
      "ValidationError",
      "type",
    );
    const readOnly = await scoped(["conversations-read"]);
    fails(
      await readOnly.postForm(`/api/v1/conversations/${conv.id}/reply`, { body: "x" }),
      403,
      "PermissionDenied",
    );
    const writer = await scoped(["conversations-write"]);
    expect((await writer.postForm(`/api/v1/conversations/${conv.id}/reply`, { body: "x" })).status).toBe(200);
    fails(
      await writer.postForm(`/api/v1/conversations/${conv.id}/reply`, { body: "x", from_user: "1" }),
      403,
      "PermissionDenied",
    );
    expect(await partCount(s, conv.id)).toBe(2);
  });

  it("refuses a bad from_admin, auto_assign or random_id, writing nothing", async ({
    server: s,
    app: a,
    other: b,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const v1 = (form: Record<string, string>) =>
      a.api.postForm(`/api/v1/conversations/${conv.id}/reply`, { body: "x", ...form });
    const before = await conversationRow(s.db, conv.id);
    const since = await lastEventId(s.db);
    const invalid: [Record<string, string>, string][] = [
      [{ from_admin: "boss" }, "from_admin"],
      [{ from_admin: "default_admin" }, "from_admin"],
      [{ from_admin: "0" }, "from_admin"],
      [{ from_admin: "-3" }, "from_admin"],
      [{ from_admin: "99999999999999999999" }, "from_admin"],
      [{ auto_assign: "someone" }, "auto_assign"],
      [{ auto_assign: "0" }, "auto_assign"],
      [{ auto_assign: "1.5" }, "auto_assign"],
      [{ random_id: "4294967296" }, "random_id"],
      [{ random_id: "-2147483649" }, "random_id"],
      [{ random_id: "abc" }, "random_id"],
      [{ auto_assign: String(a.admin.id), auto_assign_random_id: "4294967296" }, "auto_assign_random_id"],
    ];
    for (const [form, field] of invalid) fails(await v1(form), 400, "ValidationError", field);
    const unknown: [Record<string, string>, string][] = [
      [{ from_admin: "987654321" }, "from_admin"],
      [{ from_admin: String(b.admin.id) }, "from_admin"],
      [{ auto_assign: "987654321" }, "auto_assign"],
      [{ auto_assign: String(b.admin.id) }, "auto_assign"],
    ];
    for (const [form, field] of unknown) {
      const r = await v1(form);
      fails(r, 400, "LookupError");
      expect(r.body.meta.error_message).toContain(`(${field})`);
    }
    expect(await conversationRow(s.db, conv.id)).toEqual(before);
    expect(await partCount(s, conv.id)).toBe(1);
    expect(await lastEventId(s.db)).toBe(since);
    // The edges of the 32-bit range are random_ids.
    for (const random_id of ["4294967295", "-2147483648"])
      expect(ok(await v1({ random_id })).id).toBeDefined();
  });
});
