import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { makeAdmin, makeSession, makeUser } from "../testing/factories";
import { fails, ok, type Json } from "./testing";

let op1: bigint;
let op2: bigint;
let ch2: bigint;
const conv: Record<string, bigint> = {};

const url = (a: TestApp, q = "") => `/api/apps/${a.app.id}/conversations${q ? `?${q}` : ""}`;
const names = (data: unknown) => {
  const byId = new Map(Object.entries(conv).map(([k, v]) => [Number(v), k]));
  return (data as Json[]).map((x) => byId.get(Number(x.id)) ?? `?${String(x.id)}`).sort();
};

const list = async (a: TestApp, q: string) => names(ok(await a.api.get(url(a, q))));

it.beforeAll(async ({ server: s, app: a }) => {
  op1 = (await makeAdmin(s.db, { appId: a.app.id })).id;
  op2 = (await makeAdmin(s.db, { appId: a.app.id })).id;
  ch2 = (await s.db.channel.create({ data: { appId: a.app.id, name: "Second" } })).id;
  const start = async (channel?: bigint) => {
    const u = await makeUser(s.db, a.app.id);
    const d = ok(
      await a.api.postForm(`/api/users/${u.id}/startconversation`, {
        body: "help",
        ...(channel ? { channel: String(channel) } : {}),
      }),
    );
    return BigInt(d.id as number);
  };
  const act = (id: bigint, what: string, form: Record<string, string> = {}) =>
    a.api.postForm(`/api/conversations/${id}/${what}`, form).then(ok);
  // unanswered, unassigned, untagged, channel 1
  conv.c1 = await start(a.channel.id);
  // answered, op1, vip, channel 2
  conv.c2 = await start(ch2);
  await act(conv.c2, "reply", { body: "answer", auto_assign: String(op1) });
  await act(conv.c2, "tag", { tag: "vip" });
  // closed, op2, vip + billing, channel 1
  conv.c3 = await start(a.channel.id);
  await act(conv.c3, "assign", { admin: String(op2) });
  await act(conv.c3, "tag", { tag: "vip" });
  await act(conv.c3, "tag", { tag: "billing" });
  await act(conv.c3, "close");
  // delayed, billing, no channel
  conv.c4 = await start();
  await act(conv.c4, "tag", { tag: "billing" });
  await act(conv.c4, "delay", { until: String(Math.floor(Date.now() / 1000) + 3600) });
  // an operator's message nobody answered: never in the Inbox list
  const u5 = await makeUser(s.db, a.app.id);
  conv.c5 = BigInt(ok(await a.api.postForm(`/api/users/${u5.id}/sendmessage`, { body: "Hi!" })).id as number);
  // managed by an assistant
  conv.c6 = await start();
  await act(conv.c6, "assign", { admin: String(op1) });
  await s.db.conversation.update({ where: { id: conv.c6 }, data: { assistantType: "lead_bot" } });
  // an operator's message the visitor answered
  const u7 = await makeUser(s.db, a.app.id);
  conv.c7 = BigInt(ok(await a.api.postForm(`/api/users/${u7.id}/sendmessage`, { body: "Hi!" })).id as number);
  await act(conv.c7, "reply", { body: "hello", from_user: "default_user" });
});

describe("GET /apps/{id}/conversations filters", () => {
  it("lists what the Inbox shows (rule 1), newest last_update first", async ({ app: a }) => {
    const r = await a.api.get(url(a));
    expect(names(ok(r))).toEqual(["c1", "c2", "c3", "c4", "c7"]);
    const times = (r.body.data as Json[]).map((x) => x.last_update as number);
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    expect(times.some((t) => !Number.isInteger(t))).toBe(true);
  });

  it.for<[string, string[]]>([
    ["closed=true", ["c3"]],
    ["closed=false", ["c1", "c2", "c4", "c7"]],
    ["answered=true", ["c2"]],
    ["answered=false", ["c1", "c3", "c4", "c7"]],
    ["delayed=true", ["c4"]],
    ["delayed=false", ["c1", "c2", "c3", "c7"]],
    ["assigned={op1}", ["c2"]],
    ["assigned={op1}&include_not_assigned=true", ["c1", "c2", "c4", "c7"]],
    ["assigned=0&include_not_assigned=true", ["c1", "c4", "c7"]],
    ["assigned=0", ["c1", "c4", "c7"]],
    ["include_not_assigned=true", ["c1", "c4", "c7"]],
    ["tags=vip", ["c2", "c3"]],
    ["tags=vip,billing", ["c3"]],
    ['tags=["billing"]', ["c3", "c4"]],
    ["tags[]=vip&tags[]=billing", ["c3"]],
    ["include_no_tags=true", ["c1", "c7"]],
    ["tags=billing&include_no_tags=true", ["c1", "c3", "c4", "c7"]],
    ["channel={ch1}", ["c1", "c3"]],
    ["channel={ch2}", ["c2"]],
    ["channel=0", ["c4", "c7"]],
    ["closed=false&answered=false&delayed=false&assigned=0&include_not_assigned=1&channel={ch1}", ["c1"]],
    ["assistant_type=lead_bot", ["c6"]],
    ["assistant_type=dialogflow", []],
    [
      "assistant_type=lead_bot&assigned={op2}&tags=nope&channel=0&delayed=true&answered=true&include_no_tags=1",
      ["c6"],
    ],
    ["assistant_type=lead_bot&closed=true", []],
  ])("%s", async ([q, want], { app: a }) => {
    const query = q
      .replace("{op1}", String(op1))
      .replace("{op2}", String(op2))
      .replace("{ch1}", String(a.channel.id))
      .replace("{ch2}", String(ch2));
    expect(await list(a, query)).toEqual(want);
  });

  it("includes the default optional fields, and the switches change them", async ({ app: a }) => {
    const [first] = ok(await a.api.get(url(a, `channel=${ch2}`))) as unknown as Json[];
    expect(Object.keys(first!)).toEqual(
      expect.arrayContaining([
        "user",
        "part_last",
        "important_part_last",
        "reply_last",
        "assignee",
        "last_admin",
        "tags",
      ]),
    );
    expect(first).not.toHaveProperty("channel");
    expect(first).toMatchObject({
      parts_count: 4,
      tags: ["vip"],
      assignee: { id: Number(op1), type: "admin" },
      reply_last: { type: "reply_admin", body: "answer" },
      important_part_last: { type: "reply_admin" },
      part_last: { type: "tag_added" },
      user: { app: Number(a.app.id), presence: "offline" },
      delayed_until: null,
    });
    const [slim] = ok(
      await a.api.get(
        url(
          a,
          `channel=${ch2}&user=false&part_last=0&important_part_last=false&reply_last=false&include_channel=1`,
        ),
      ),
    ) as unknown as Json[];
    expect(slim).not.toHaveProperty("user");
    expect(slim).not.toHaveProperty("part_last");
    expect(slim).not.toHaveProperty("reply_last");
    expect(slim).not.toHaveProperty("important_part_last");
    expect(slim!.channel).toMatchObject({ id: Number(ch2), name: "Second", type: "manual" });
  });

  it("refuses bad parameters with error_fields", async ({ app: a, other: b }) => {
    const bad: [string, string][] = [
      ["assigned=someone", "assigned"],
      ["assigned=-1", "assigned"],
      ["channel=x", "channel"],
      ['tags=["a,b"]', "tags.0"],
      ["tags=" + "x".repeat(256), "tags.0"],
      ["assistant_type=robot", "assistant_type"],
      ["paginate_count=0", "paginate_count"],
      ["paginate_count=51", "paginate_count"],
      ["paginate_direction=sideways", "paginate_direction"],
      ["paginate_position=nope", "paginate_position"],
      ['paginate_position=["x", 1]', "paginate_position"],
      ["paginate_page_order=up", "paginate_page_order"],
      ["paginate_direction=around", "paginate_position"],
      ["paginate_position=[1e20, 1]", "paginate_position"],
      ["paginate_position=[1, 99999999999999999999]", "paginate_position"],
      ["tags=a%00b", "tags"],
    ];
    for (const [q, field] of bad) fails(await a.api.get(url(a, q)), 400, "ValidationError", field);
    fails(await a.api.get(`/api/apps/abc/conversations`), 400, "ValidationError", "id");
    fails(await a.api.get(`/api/apps/${b.app.id}/conversations`), 403, "PermissionDenied");
  });

  it("serves $self_app, id_as_string and operator sessions", async ({ server: s, app: a }) => {
    const r = ok(
      await a.api.get(`/api/apps/$self_app/conversations?id_as_string=1&channel=${ch2}`),
    ) as unknown as Json[];
    expect(r[0]).toMatchObject({ id: String(conv.c2), assignee: { id: String(op1) } });
    const op = await makeSession(s.db, a.admin.id);
    const viaSession = await s.call(url(a), { headers: { cookie: op.cookie } });
    expect(names(ok(viaSession))).toEqual(["c1", "c2", "c3", "c4", "c7"]);
  });
});

describe("GET /v1/apps/{id}/conversations", () => {
  const v1 = (a: TestApp, q = "") => `/api/v1/apps/${a.app.id}/conversations${q ? `?${q}` : ""}`;
  it("filters with v1's arguments and answers integer last_update and next_after", async ({ app: a }) => {
    expect(names(ok(await a.api.get(v1(a))))).toEqual(["c1", "c2", "c3", "c4", "c7"]);
    expect(names(ok(await a.api.get(v1(a, "closed=true"))))).toEqual(["c3"]);
    expect(names(ok(await a.api.get(v1(a, "assigned=null"))))).toEqual(["c1", "c4", "c7"]);
    expect(names(ok(await a.api.get(v1(a, "assigned=0&include_not_assigned=true"))))).toEqual([
      "c1",
      "c4",
      "c7",
    ]);
    expect(names(ok(await a.api.get(v1(a, `assigned=${op1}`))))).toEqual(["c2"]);
    expect(names(ok(await a.api.get(v1(a, "tags=vip,billing"))))).toEqual(["c3"]);
    expect(names(ok(await a.api.get(v1(a, `channel=${a.channel.id}`))))).toEqual(["c1", "c3"]);
    // v2-only filters are not v1 arguments: ignored.
    expect(names(ok(await a.api.get(v1(a, "answered=true"))))).toHaveLength(5);
    const r = await a.api.get(v1(a, "count=2"));
    const data = ok(r) as unknown as Json[];
    expect(data).toHaveLength(2);
    expect(Number.isInteger(data[0]!.last_update)).toBe(true);
    expect(data[0]).not.toHaveProperty("delayed_until");
    expect(typeof r.body.meta.next_after).toBe("string");
    expect(r.headers.get("deprecation")).toBe("true");
  });

  it("checks the scope and v1's parameters", async ({ app: a, scoped }) => {
    const narrow = await scoped(["user-read"]);
    fails(await narrow.get(v1(a)), 403, "PermissionDenied");
    fails(await a.api.get(v1(a, "count=51")), 400, "ValidationError", "count");
    fails(await a.api.get(v1(a, "assigned=x")), 400, "ValidationError", "assigned");
    fails(await a.api.get(v1(a, "after=garbage")), 400, "ValidationError", "after");
    fails(await a.api.get(v1(a, "after=99999999999999999999")), 400, "ValidationError", "after");
  });

  it("include_not_assigned alone gives the unassigned conversations; with an admin it adds them", async ({
    app: a,
  }) => {
    expect(names(ok(await a.api.get(v1(a, "include_not_assigned=true"))))).toEqual(["c1", "c4", "c7"]);
    expect(names(ok(await a.api.get(v1(a, "include_not_assigned=1&closed=false"))))).toEqual([
      "c1",
      "c4",
      "c7",
    ]);
    expect(names(ok(await a.api.get(v1(a, `assigned=${op1}&include_not_assigned=true`))))).toEqual([
      "c1",
      "c2",
      "c4",
      "c7",
    ]);
    // Booleans read false/0/empty as false: no filter at all.
    expect(names(ok(await a.api.get(v1(a, "include_not_assigned=false"))))).toEqual([
      "c1",
      "c2",
      "c3",
      "c4",
      "c7",
    ]);
  });

  it("refuses a bad channel, tags, count or after with error_fields", async ({ app: a }) => {
    const bad: [string, string][] = [
      ["channel=x", "channel"],
      ["channel=-1", "channel"],
      ["channel=1.5", "channel"],
      ["channel=99999999999999999999", "channel"],
      ["tags=vip,,billing", "tags.1"],
      ["tags=vip,", "tags.1"],
      [`tags=vip,${"x".repeat(256)}`, "tags.1"],
      ["tags=%5B%22a%2Cb%22%5D", "tags.0"],
      ["tags=%5Bbroken", "tags"],
      [`tags=${Array.from({ length: 51 }, (_, i) => `t${i}`).join(",")}`, "tags"],
      ["count=0", "count"],
      ["count=51", "count"],
      ["count=-5", "count"],
      ["count=ten", "count"],
      ["after=-1", "after"],
      ["after=1.5_x", "after"],
      ["after=1_2_3", "after"],
      ["after=1700000000.5_-2", "after"],
      ["after=99999999999999.5_1", "after"],
      ["page_order=up", "page_order"],
    ];
    for (const [q, field] of bad) fails(await a.api.get(v1(a, q)), 400, "ValidationError", field);
    // The same list with each value fixed is served.
    expect(
      ok(await a.api.get(v1(a, `channel=${a.channel.id}&tags=vip&count=50&after=1700000000.5_1`))),
    ).toEqual([]);
    expect(names(ok(await a.api.get(v1(a, `tags=${"x".repeat(255)}`))))).toEqual([]);
  });
});

describe("GET /apps/{id}/conversations/counts", () => {
  it("counts the Inbox tabs and each channel", async ({ server: s, app: a, other: b }) => {
    const counts = ok(await a.api.get(`/api/apps/${a.app.id}/conversations/counts?admin=${op1}`));
    expect(counts).toMatchObject({ open: 3, closed: 1, delayed: 1, mine: 1, unassigned: 2 });
    const channels = counts.channels as Json[];
    expect(channels.map((x) => x.id)).toEqual([0, Number(a.channel.id), Number(ch2)]);
    expect(channels[0]).toMatchObject({ open: 1, delayed: 1, closed: 0, unassigned: 1 });
    expect(channels[1]).toMatchObject({ open: 1, closed: 1, unassigned: 1 });
    expect(channels[2]).toMatchObject({ open: 1, mine: 1, unassigned: 0 });
    expect(ok(await a.api.get(`/api/apps/${a.app.id}/conversations/counts`)).mine).toBe(0);
    const op = await makeSession(s.db, op2);
    const mine = ok(
      await s.call(`/api/apps/${a.app.id}/conversations/counts`, { headers: { cookie: op.cookie } }),
    );
    expect(mine.mine).toBe(0);
    fails(await a.api.get(`/api/apps/${b.app.id}/conversations/counts`), 403, "PermissionDenied");
    fails(
      await a.api.get(`/api/apps/${a.app.id}/conversations/counts?admin=x`),
      400,
      "ValidationError",
      "admin",
    );
    fails(await a.api.get(`/api/v1/apps/${a.app.id}/conversations/counts`), 404, "NotFound");
  });
});
