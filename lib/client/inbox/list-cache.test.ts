import { describe, expect, it } from "vitest";
import { listParams, matchesList, parseInboxUrl, inboxSearch } from "./filters";
import {
  flattenConversations,
  reconcileList,
  upsertConversation,
  type ConversationPages,
} from "./list-cache";
import { conv, pages } from "./testing";

const ids = (d: ConversationPages) => flattenConversations(d).map((c) => c.id);

describe("upsertConversation", () => {
  it("moves an updated conversation to its place by last_update, without duplicating it", () => {
    const [x, y, z] = [conv({ last_update: 30 }), conv({ last_update: 20 }), conv({ last_update: 10 })];
    const data = pages({ items: [x, y, z], next: null });
    const out = upsertConversation(data, { ...z, last_update: 40 });
    expect(ids(out)).toEqual([z.id, x.id, y.id]);
  });

  it("leaves out a conversation that sorts after every loaded row while more pages remain", () => {
    const [x, y] = [conv({ last_update: 30 }), conv({ last_update: 20 })];
    const old = conv({ last_update: 5 });
    expect(ids(upsertConversation(pages({ items: [x, y], next: [20, y.id] }), old))).toEqual([x.id, y.id]);
    expect(ids(upsertConversation(pages({ items: [x, y], next: null }), old))).toEqual([x.id, y.id, old.id]);
  });

  it("keeps the loaded pages' last row, updated in place: the next page starts after it", () => {
    const [x, y] = [conv({ last_update: 30 }), conv({ last_update: 20 })];
    const data = pages({ items: [x, y], next: [20, y.id] });
    expect(ids(upsertConversation(data, { ...y, read: false }))).toEqual([x.id, y.id]);
  });

  it("breaks last_update ties by the higher ID first, as the API does", () => {
    const low = conv({ id: 5, last_update: 10 });
    const high = conv({ id: 9, last_update: 10 });
    expect(ids(upsertConversation(pages({ items: [low], next: null }), high))).toEqual([9, 5]);
  });
});

describe("matchesList", () => {
  const none = () => undefined;
  it("follows the tabs, the assignee and the tags", () => {
    const open = listParams({ tab: "open", assignee: "mine", channel: null, tag: "vip" }, "7");
    const me = { id: 7, name: "Me", avatar: "", type: "admin" as const };
    expect(matchesList(conv({ assignee: me, tags: ["vip"] }), open, 50, none)).toBe(true);
    expect(matchesList(conv({ assignee: me, tags: [] }), open, 50, none)).toBe(false);
    expect(matchesList(conv({ assignee: null, tags: ["vip"] }), open, 50, none)).toBe(false);
    expect(matchesList(conv({ assignee: me, tags: ["vip"], delayed_until: 60 }), open, 50, none)).toBe(false);
    const delayed = listParams({ tab: "delayed", assignee: "all", channel: null, tag: null }, "7");
    expect(matchesList(conv({ delayed_until: 60 }), delayed, 50, none)).toBe(true);
    expect(matchesList(conv({ delayed_until: 40 }), delayed, 50, none)).toBe(false);
    const closed = listParams({ tab: "closed", assignee: "unassigned", channel: null, tag: null }, "7");
    expect(matchesList(conv({ closed: true }), closed, 50, none)).toBe(true);
    expect(matchesList(conv({ closed: false }), closed, 50, none)).toBe(false);
  });

  it("cannot tell a channel filter's answer without the channel", () => {
    const p = listParams({ tab: "open", assignee: "all", channel: "3", tag: null }, "7");
    expect(matchesList(conv(), p, 0, none)).toBeUndefined();
    expect(matchesList(conv(), p, 0, () => "3")).toBe(true);
    expect(matchesList(conv({ channel: null }), p, 0, none)).toBe(false);
  });
});

describe("the URL state", () => {
  it("round-trips and ignores junk", () => {
    const state = parseInboxUrl(new URLSearchParams("tab=closed&assignee=12&channel=3&tag=vip&c=99"));
    expect(state).toEqual({ tab: "closed", assignee: "12", channel: "3", tag: "vip", selected: "99" });
    expect(parseInboxUrl(new URLSearchParams(inboxSearch(state)))).toEqual(state);
    expect(parseInboxUrl(new URLSearchParams("tab=<x>&assignee=drop&c=1;2"))).toEqual({
      tab: "open",
      assignee: "all",
      channel: null,
      tag: null,
      selected: null,
    });
    const rated = parseInboxUrl(new URLSearchParams("tab=closed&rating=good"));
    expect(rated.rating).toBe("good");
    expect(parseInboxUrl(new URLSearchParams(inboxSearch(rated)))).toEqual(rated);
    expect(parseInboxUrl(new URLSearchParams("rating=great")).rating).toBeUndefined();
  });
});

describe("reconcileList", () => {
  const env = { now: 0, channelOf: () => undefined, seen: () => true };
  it("changes nothing when the states it puts back are the rows as loaded, in any order", () => {
    const rows = Array.from({ length: 5 }, (_, k) => conv({ tags: ["t"], last_update: 50 - k }));
    const data = pages({ items: rows, next: [rows.at(-1)!.last_update, rows.at(-1)!.id] });
    const params = { closed: false, delayed: false, tags: ["t"] };
    expect(ids(reconcileList(data, params, [...rows].reverse(), env))).toEqual(rows.map((c) => c.id));
  });
});
