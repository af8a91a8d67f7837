import { describe, expect, test } from "vitest";
import { AutoMessages, type MessagesApp } from "./auto-messages";
import type { View } from "./context";
import { Store } from "./store";
import type { Conversation, Part, VisitorMessage } from "./types";
import type { Preview } from "../protocol";

const chat = (send: number, body = `Hello ${send}`): VisitorMessage => ({
  send,
  message: 100 + send,
  kind: "chat",
  created: 1_700_000_000 + send,
  sender: { id: 9, name: "Olivia", avatar: "" },
  title: null,
  body,
  button: null,
  email_field: false,
});

const popup = (send: number): VisitorMessage => ({
  ...chat(send, "Ten percent off today"),
  kind: "popup",
  sender: null,
  title: "A gift",
  email_field: true,
});

const conversation: Conversation = {
  id: 77,
  created: 1,
  last_update: 2,
  closed: false,
  unread: 0,
  last_part: null,
  assignee: null,
};
const answer: Part = {
  id: 5,
  conversation: 77,
  created: 2,
  type: "reply_user",
  body: "Yes please",
  from: { kind: "user" },
  attachments: [],
  read: false,
};

/** The controller over a fake frame: the API's answers, the views it goes to, what it posts to the loader. */
function setup(fromServer: VisitorMessage[] = []) {
  const calls: { method: string; path: string; body?: unknown }[] = [];
  const previews: (Preview | null)[] = [];
  const announced: string[] = [];
  let reloads = 0;
  const app = {
    view: { name: "home" } as View,
    visible: false,
    visitor: { id: 1, user_id: null, name: null, email: null, anonymous: true },
    store: new Store(),
    host: { key: "mk_test", post: (m: { preview: Preview | null }) => previews.push(m.preview) },
    api: {
      call: async (method: string, path: string, body?: unknown) => {
        calls.push({ method, path, body });
        if (method === "GET") return fromServer;
        if (path.endsWith("/reply")) return { conversation, part: answer };
        return {};
      },
    },
    go: (v: View) => {
      app.view = v;
    },
    emit: () => undefined,
    reload: async () => void reloads++,
  };
  const messages = new AutoMessages(app as unknown as MessagesApp, (t) => announced.push(t));
  const posts = (suffix: string) => calls.filter((c) => c.method === "POST" && c.path.endsWith(suffix));
  return { app, messages, calls, previews, announced, posts, reloads: () => reloads };
}

describe("the messages sent to the visitor", () => {
  test("loaded and live alike, newest first and once each; the newest one not seen is previewed and counted", async () => {
    const s = setup([chat(1)]);
    await s.messages.load();
    expect(s.previews.at(-1)).toMatchObject({ send: 1, kind: "chat", body: "Hello 1" });
    s.messages.add({ ...chat(2), send: 2, message: 102 });
    // A socket's replay after a reconnect brings it again.
    s.messages.add({ ...chat(2), send: 2, message: 102 });
    expect(s.messages.shown().map((m) => m.send)).toEqual([2, 1]);
    expect(s.announced).toEqual(["Olivia: Hello 2"]);
    expect(s.previews.at(-1)).toMatchObject({ send: 2 });
    expect(s.messages.unread()).toBe(2);
    expect(s.posts("/read")).toEqual([]);
  });

  test("the open messenger's home reads every message once; a message's own view reads only its own", async () => {
    const s = setup([chat(2), chat(1)]);
    s.app.view = { name: "thread", conversation: 5 };
    s.app.visible = true;
    await s.messages.load();
    // In another conversation: not seen.
    expect(s.posts("/read")).toEqual([]);
    s.app.go({ name: "message", send: 1 });
    s.messages.sync();
    expect(s.posts("/read").map((c) => c.path)).toEqual(["/messages/1/read"]);
    expect(s.messages.title(1)).toBe("Olivia");
    s.app.go({ name: "home" });
    s.messages.sync();
    s.messages.sync();
    expect(s.posts("/read").map((c) => c.path)).toEqual(["/messages/1/read", "/messages/2/read"]);
    expect(s.messages.unread()).toBe(0);
    expect(s.previews.at(-1)).toBeNull();
  });

  test("nothing is read while the messenger is closed, even on home", async () => {
    const s = setup([chat(1)]);
    await s.messages.load();
    s.messages.sync();
    expect(s.posts("/read")).toEqual([]);
    s.app.visible = true;
    s.messages.sync();
    expect(s.posts("/read")).toHaveLength(1);
  });

  test("closing one hides it without a click, and leaves its own view", async () => {
    const s = setup([chat(2), chat(1)]);
    await s.messages.load();
    s.messages.fromPreview(2, "open");
    expect(s.app.view).toEqual({ name: "message", send: 2 });
    s.messages.fromPreview(2, "dismiss");
    expect(s.app.view).toEqual({ name: "home" });
    expect(s.messages.shown().map((m) => m.send)).toEqual([1]);
    expect(s.previews.at(-1)).toMatchObject({ send: 1 });
    expect(s.posts("/click")).toEqual([]);
    // A preview of a message no longer there opens nothing.
    s.messages.fromPreview(2, "open");
    expect(s.app.view).toEqual({ name: "home" });
  });

  test("an answer starts the conversation and opens it; the message leaves the list", async () => {
    const s = setup([chat(1)]);
    await s.messages.load();
    s.app.go({ name: "message", send: 1 });
    await s.messages.reply(1, "Yes please");
    expect(s.posts("/messages/1/reply")[0]!.body).toMatchObject({ body: "Yes please" });
    expect(s.app.view).toEqual({ name: "thread", conversation: 77 });
    expect(s.app.store.partsOf(77).map((p) => p.body)).toEqual(["Yes please"]);
    expect(s.reloads()).toBe(1);
    expect(s.messages.shown()).toEqual([]);
    expect(s.previews.at(-1)).toBeNull();
  });

  test("a pop-up's email is a click that sets the visitor's email and thanks them; its link is a click that ends it", async () => {
    const s = setup([popup(2), popup(1)]);
    await s.messages.load();
    await s.messages.click(2, "ann@example.com");
    expect(s.posts("/messages/2/click")[0]!.body).toEqual({ email: "ann@example.com" });
    expect(s.app.visitor).toMatchObject({ email: "ann@example.com", anonymous: false });
    expect(s.messages.isThanked(2)).toBe(true);
    expect(s.messages.unread()).toBe(1);
    await s.messages.click(1);
    expect(s.posts("/messages/1/click")[0]!.body).toEqual({});
    expect(s.messages.shown().map((m) => m.send)).toEqual([2]);
    expect(s.previews.at(-1)).toBeNull();
  });
});
