import { describe, expect, test } from "vitest";
import { Store } from "./store";
import type { Conversation } from "./types";

const summary = (last_update: number, body: string, unread = 0) =>
  ({
    id: 7,
    last_update,
    unread,
    last_part: { id: last_update, body } as unknown as Conversation["last_part"],
  }) as unknown as Conversation;

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
