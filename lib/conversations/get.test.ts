import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { makeUser } from "../testing/factories";
import { fails, ok, type Json } from "./testing";

let id: bigint;
let userId: bigint;
let partIds: number[];

it.beforeAll(async ({ server: s, app: a }) => {
  const user = await makeUser(s.db, a.app.id, { name: "Ada", email: "ada@example.test" });
  userId = user.id;
  const started = ok(
    await a.api.postForm(`/api/users/${user.id}/startconversation`, {
      body: "first",
      channel: String(a.channel.id),
    }),
  );
  id = BigInt(started.id as number);
  partIds = [(started.part as Json).id as number];
  for (let i = 0; i < 11; i++) {
    const form: Record<string, string> =
      i % 2 ? { body: `admin ${i}` } : { body: `user ${i}`, from_user: "default_user" };
    partIds.push(ok(await a.api.postForm(`/api/conversations/${id}/reply`, form)).id as number);
  }
  await a.api.postForm(`/api/conversations/${id}/reply`, {
    body: "buttons",
    body_json: '{"k":1}',
    actions: JSON.stringify([{ type: "quick_reply", body: "ok" }]),
  });
  partIds.push(Number((await s.db.conversationPart.findFirstOrThrow({ where: { body: "buttons" } })).id));
});

describe("GET /conversations/{id}", () => {
  it("returns the conversation with every optional field by default", async ({ app: a }) => {
    const d = ok(await a.api.get(`/api/conversations/${id}`));
    expect(d).toMatchObject({
      id: Number(id),
      parts_count: 13,
      read: true,
      replied: true,
      clicked: false,
      unsubscribed: false,
      closed: false,
      message: null,
      type: "popup_chat",
      reply_type: "text",
      unread_parts_count: 0,
      assignee: null,
      last_admin: { id: Number(a.admin.id), type: "admin" },
      tags: [],
      user: { id: Number(userId), props: { $name: "Ada", $email: "ada@example.test" } },
      channel: { id: Number(a.channel.id), type: "manual", not_assigned_count: 1, not_read_count: 0 },
      part_last: { body: "buttons", actions: [{ type: "quick_reply", body: "ok" }] },
      important_part_last: { body: "buttons" },
      reply_last: { body: "buttons" },
    });
    expect(typeof d.last_update).toBe("number");
    expect(typeof d.created).toBe("number");
  });

  it("drops optional fields switched off", async ({ app: a }) => {
    const d = ok(
      await a.api.get(
        `/api/conversations/${id}?user=false&channel=0&part_last=0&important_part_last=0&reply_last=0`,
      ),
    );
    for (const k of ["user", "channel", "part_last", "important_part_last", "reply_last"])
      expect(d).not.toHaveProperty(k);
  });

  it("has a v1 form with integer last_update and the conversations-read scope", async ({
    app: a,
    scoped,
  }) => {
    const d = ok(await a.api.get(`/api/v1/conversations/${id}`));
    expect(Number.isInteger(d.last_update)).toBe(true);
    expect(d).toHaveProperty("channel");
    const narrow = await scoped(["conversations-write"]);
    fails(await narrow.get(`/api/v1/conversations/${id}`), 403, "PermissionDenied");
    fails(await narrow.get(`/api/conversations/${id}`), 403, "PermissionDenied");
  });

  it("answers LookupError, PermissionDenied and ValidationError", async ({ server: s, app: a, other: b }) => {
    fails(await a.api.get(`/api/conversations/99999999`), 400, "LookupError");
    fails(await b.api.get(`/api/conversations/${id}`), 403, "PermissionDenied");
    fails(await a.api.get(`/api/conversations/x1`), 400, "ValidationError", "id");
    fails(await s.call(`/api/conversations/${id}`), 401, "AuthenticationFailed");
    fails(await a.api.del(`/api/conversations/${id}`), 405, "MethodNotAllowed");
  });
});

describe("GET /conversations/{id}/parts", () => {
  const parts = (q = "") => `/api/conversations/${id}/parts${q ? `?${q}` : ""}`;

  it("pages by part ID, newest first, with next_before_position", async ({ app: a }) => {
    const r = await a.api.get(parts("paginate_count=5"));
    const page = ok(r) as unknown as Json[];
    const desc = [...partIds].sort((x, y) => y - x);
    expect(page.map((p) => p.id)).toEqual(desc.slice(0, 5));
    expect(r.body.meta.next_before_position).toEqual([desc[4]]);
    const seen: number[] = [];
    let pos: unknown = null;
    do {
      const q = `paginate_count=4${pos ? `&paginate_position=${JSON.stringify(pos)}` : ""}`;
      const next = await a.api.get(parts(q));
      seen.push(...(ok(next) as unknown as Json[]).map((p) => p.id as number));
      pos = next.body.meta.next_before_position;
    } while (pos);
    expect(seen).toEqual(desc);
    const after = ok(
      await a.api.get(
        parts(`paginate_direction=after&paginate_position=[${desc[2]}]&paginate_page_order=asc`),
      ),
    );
    expect((after as unknown as Json[]).map((p) => p.id)).toEqual([desc[1], desc[0]]);
  });

  it("has part fields, and switches for attachments, body_json, meta_data and actions", async ({
    app: a,
  }) => {
    const [newest] = ok(await a.api.get(parts("paginate_count=1"))) as unknown as Json[];
    expect(Object.keys(newest!)).toEqual(
      expect.arrayContaining([
        "id",
        "created",
        "conversation",
        "body",
        "body_json",
        "read",
        "direction",
        "type",
        "sent_via",
        "attachments",
        "meta_data",
        "reply_type",
        "actions",
        "edited",
        "removed",
        "external_id",
        "part_group",
        "from",
        "random_id",
      ]),
    );
    expect(newest).toMatchObject({ reply_type: "no", edited: null, removed: null, body_json: { k: 1 } });
    const [slim] = ok(
      await a.api.get(parts("paginate_count=1&attachments=0&body_json=false&meta_data=0&actions=0")),
    ) as unknown as Json[];
    for (const k of ["attachments", "body_json", "meta_data", "actions"]) expect(slim).not.toHaveProperty(k);
  });

  it("has a v1 form paged with after/count", async ({ app: a }) => {
    const seen: number[] = [];
    let after: number | string | null = null;
    do {
      const r = await a.api.get(
        `/api/v1/conversations/${id}/parts?count=5${after ? `&after=${String(after)}` : ""}`,
      );
      seen.push(...(ok(r) as unknown as Json[]).map((p) => p.id as number));
      after = r.body.meta.next_after as number | string | null;
    } while (after);
    expect(seen).toEqual([...partIds].sort((x, y) => y - x));
    fails(await a.api.get(`/api/v1/conversations/${id}/parts?count=0`), 400, "ValidationError", "count");
  });

  it("refuses bad paging and other apps' conversations", async ({ app: a, other: b }) => {
    fails(await a.api.get(parts("paginate_count=99")), 400, "ValidationError", "paginate_count");
    fails(await a.api.get(parts("paginate_position=[1,2]")), 400, "ValidationError", "paginate_position");
    fails(await a.api.get(parts('paginate_position=["abc"]')), 400, "ValidationError", "paginate_position");
    fails(await b.api.get(parts()), 403, "PermissionDenied");
    fails(await a.api.get(`/api/conversations/424242424/parts`), 400, "LookupError");
  });
});
