import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { makeApp, makeToken, makeUser } from "../testing/factories";
import { client } from "../testing/http";
import { errorOf, ok } from "./testing";

let user: { id: bigint; userId: string | null };
const convs: number[] = [];

it.beforeAll(async ({ server: s, app: a }) => {
  user = await makeUser(s.db, a.app.id, { name: "Vera" });
  convs.push(
    ok<{ id: number }>(await a.api.postJson(`/api/users/${user.id}/startconversation`, { body: "Hi, first" }))
      .id,
  );
  convs.push(
    ok<{ id: number }>(await a.api.postJson(`/api/users/${user.id}/sendmessage`, { body: "Hello from us" }))
      .id,
  );
  convs.push(
    ok<{ id: number }>(await a.api.postJson(`/api/users/${user.id}/startconversation`, { body: "Hi again" }))
      .id,
  );
});

type Conv = {
  id: number;
  user?: { id: number; props: Record<string, unknown> };
  part_last?: { body: string } | null;
} & Record<string, unknown>;
const list = (a: TestApp, params: Record<string, unknown> = {}, v = "", id: string | bigint = user.id) =>
  a.api.get(`/api/${v}users/${id}/conversations`, params);

describe("GET /users/{id}/conversations", () => {
  it("lists the user's conversations newest first with the default optional fields", async ({ app: a }) => {
    const r = await list(a);
    const data = ok<Conv[]>(r);
    expect(data.map((c) => c.id)).toEqual([convs[2], convs[1], convs[0]]);
    for (const c of data) {
      expect(c).toHaveProperty("part_last");
      expect(c).toHaveProperty("important_part_last");
      expect(c).toHaveProperty("reply_last");
      expect(c).not.toHaveProperty("channel");
      expect(c.user).toMatchObject({ id: Number(user.id), props: { $name: "Vera" } });
    }
    expect(data[0]!.part_last?.body).toBe("Hi again");
    expect(r.body.meta.next_before_position).toBeNull();
  });

  it("filters to conversations with user replies and by recipient type", async ({ app: a }) => {
    expect(ok<Conv[]>(await list(a, { with_user_replies_only: true })).map((c) => c.id)).toEqual([
      convs[2],
      convs[0],
    ]);
    expect(ok<Conv[]>(await list(a, { recipient_type: "web" }))).toHaveLength(3);
    expect(ok<Conv[]>(await list(a, { recipient_type: "sdk" }))).toEqual([]);
    expect(
      errorOf(await list(a, { recipient_type: "ios" }), 400, "ValidationError").error_fields,
    ).toHaveProperty("recipient_type");
  });

  it("pages by last update and honours the field switches", async ({ app: a }) => {
    const p1 = await list(a, { paginate_count: 2, user: false });
    expect(ok<Conv[]>(p1).map((c) => c.id)).toEqual([convs[2], convs[1]]);
    expect(ok<Conv[]>(p1)[0]).not.toHaveProperty("user");
    const pos = p1.body.meta.next_before_position as number[];
    expect(pos).toHaveLength(2);
    const p2 = await list(a, { paginate_count: 2, paginate_position: pos });
    expect(ok<Conv[]>(p2).map((c) => c.id)).toEqual([convs[0]]);
  });

  it("refuses bad paging parameters with error_fields", async ({ app: a }) => {
    const bad: [Record<string, unknown>, string][] = [
      [{ paginate_count: 0 }, "paginate_count"],
      [{ paginate_count: 51 }, "paginate_count"],
      [{ paginate_count: 2.5 }, "paginate_count"],
      [{ paginate_position: "nope" }, "paginate_position"],
      [{ paginate_position: ["x", 1] }, "paginate_position"],
      [{ paginate_position: [1e20, 1] }, "paginate_position"],
      [{ paginate_position: [1_700_000_000, -1] }, "paginate_position"],
      [{ paginate_position: [1, 2, 3] }, "paginate_position"],
      [{ paginate_position: { at: 1 } }, "paginate_position"],
      [{ paginate_direction: "sideways" }, "paginate_direction"],
      [{ paginate_direction: "around" }, "paginate_position"],
      [{ paginate_page_order: "up" }, "paginate_page_order"],
    ];
    for (const [q, field] of bad) {
      const fields = errorOf(await list(a, q), 400, "ValidationError").error_fields;
      expect(Object.keys(fields ?? {}), JSON.stringify(q)).toContain(field);
    }
    const v1Bad: [Record<string, unknown>, string][] = [
      [{ count: 0 }, "count"],
      [{ count: 51 }, "count"],
      [{ after: "garbage" }, "after"],
      [{ after: "1700000000.5_x" }, "after"],
      [{ after: "1700000000.5_1_2" }, "after"],
      [{ after: "-1" }, "after"],
      [{ after: "99999999999999999999" }, "after"],
      [{ page_order: "up" }, "page_order"],
    ];
    for (const [q, field] of v1Bad) {
      const fields = errorOf(await list(a, q, "v1/"), 400, "ValidationError").error_fields;
      expect(Object.keys(fields ?? {}), JSON.stringify(q)).toContain(field);
    }
    // Valid edges are served: 50 per page, a position or cursor older than every conversation.
    expect(ok<Conv[]>(await list(a, { paginate_count: 50 }))).toHaveLength(3);
    expect(ok<Conv[]>(await list(a, { paginate_position: [1_700_000_000, 1] }))).toEqual([]);
    expect(ok<Conv[]>(await list(a, { count: 50, after: "1700000000.500000_1" }, "v1/"))).toEqual([]);
  });

  it("finds the user by user ID and answers LookupError for an unknown user", async ({
    server: s,
    app: a,
  }) => {
    expect(ok<Conv[]>(await list(a, { by_user_id: true }, "", user.userId!))).toHaveLength(3);
    errorOf(await list(a, {}, "", 987_654_321n), 400, "LookupError");
    errorOf(await list(a, { by_user_id: true }, "", "no-such-user"), 400, "LookupError");
    errorOf(await list(a, {}, "v1/", 987_654_321n), 400, "LookupError");
    errorOf(
      await client(s, (await makeApp(s.db)).token).get(`/api/users/${user.id}/conversations`),
      403,
      "PermissionDenied",
    );
  });
});

describe("GET /v1/users/{id}/conversations", () => {
  it("omits the user object and pages with after/count", async ({ app: a }) => {
    const p1 = await list(a, { count: 2 }, "v1/");
    const data = ok<Conv[]>(p1);
    expect(data.map((c) => c.id)).toEqual([convs[2], convs[1]]);
    expect(data[0]).not.toHaveProperty("user");
    expect(data[0]).toHaveProperty("part_last");
    expect(typeof p1.body.meta.next_after).toBe("string");
    const p2 = await list(a, { count: 2, after: p1.body.meta.next_after }, "v1/");
    expect(ok<Conv[]>(p2).map((c) => c.id)).toEqual([convs[0]]);
    expect(p2.body.meta.next_after).toBeNull();
  });

  it("needs both conversations-read and user-read", async ({ server: s, app: a }) => {
    for (const scopes of [["user-read"], ["conversations-read"]] as const) {
      const t = await makeToken(s.db, a.app.id, [...scopes]);
      errorOf(await client(s, t).get(`/api/v1/users/${user.id}/conversations`), 403, "PermissionDenied");
    }
    const both = await makeToken(s.db, a.app.id, ["user-read", "conversations-read"]);
    ok(await client(s, both).get(`/api/v1/users/${user.id}/conversations`));
  });
});
