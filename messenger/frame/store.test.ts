import { describe, expect, test } from "vitest";
import { Store } from "./store";
import type { Conversation, Part } from "./types";

const part = (id: number, body: string): Part => ({
  id,
  conversation: 7,
  created: id,
  type: "reply_user",
  body,
  from: { kind: "user" },
  attachments: [],
  read: false,
});

const summary = (last_update: number, body: string, unread = 0): Conversation => ({
  id: 7,
  created: 0,
  last_update,
  closed: false,
  unread,
  last_part: part(last_update, body),
  assignee: null,
});

describe("Store's conversation summaries", () => {
  test("a summary older than the one held is dropped, from the socket or a list; an equal or newer one is taken", () => {
    const store = new Store();
    store.setConversations([summary(200, "the operator's reply")]);
    // The visitor's first message's event, read late by the log tail.
    store.upsertConversation(summary(100, "the visitor's first message"));
    expect(store.recent()[0]!.last_part).toMatchObject({ body: "the operator's reply" });
    // A list requested before the reply's event came.
    store.setConversations([summary(100, "the visitor's first message")]);
    expect(store.recent()[0]!.last_part).toMatchObject({ body: "the operator's reply" });
    // A read changes the unread count without moving last_update.
    store.upsertConversation(summary(200, "the operator's reply", 0));
    store.upsertConversation(summary(200, "the operator's reply", 3));
    expect(store.recent()[0]!.unread).toBe(3);
    store.upsertConversation(summary(300, "a newer one"));
    expect(store.recent()[0]!.last_part).toMatchObject({ body: "a newer one" });
  });
});

describe("Store's parts", () => {
  test("a thread's page, newest first, leaves its newest part as the conversation's last, whatever came first", () => {
    const store = new Store();
    // The list answered before the thread's page (the race after a reload on the open thread).
    store.setConversations([summary(2, "the operator's reply")]);
    store.setParts(7, [part(2, "the operator's reply"), part(1, "the visitor's first message")]);
    expect(store.recent()[0]!.last_part).toMatchObject({ body: "the operator's reply" });
    // A new message from the socket is the last one; a part older than the last one held is not.
    store.addPart(part(3, "a new one"));
    expect(store.recent()[0]!.last_part).toMatchObject({ body: "a new one" });
    store.addPart(part(0, "an older one, replayed"));
    expect(store.recent()[0]!.last_part).toMatchObject({ body: "a new one" });
  });
});
