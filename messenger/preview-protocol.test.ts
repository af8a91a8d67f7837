import { describe, expect, test } from "vitest";
import {
  isBotPreviewQuery,
  isPreviewQuery,
  isPreviewReady,
  parseBotAnswer,
  parseBotPreview,
  parsePreview,
} from "./preview-protocol";
import { TAG } from "./protocol";

const message = {
  kind: "popup",
  sender: null,
  title: "A gift",
  body: "Ten percent off",
  button: { label: "Get it", action: "link", url: "https://example.test" },
  email_field: true,
};

describe("the preview's messages", () => {
  test("the editor's message is read with its accent", () => {
    expect(parsePreview({ tag: TAG, type: "preview", message, accent: "#00AA11" })).toEqual({
      message,
      accent: "#00AA11",
    });
  });

  test("anything else is refused: another tag or type, no body, an unknown kind", () => {
    expect(parsePreview({ tag: "other", type: "preview", message, accent: null })).toBeNull();
    expect(parsePreview({ tag: TAG, type: "hello" })).toBeNull();
    expect(parsePreview({ tag: TAG, type: "preview", message: { ...message, body: 1 } })).toBeNull();
    expect(parsePreview({ tag: TAG, type: "preview", message: { ...message, kind: "email" } })).toBeNull();
    expect(parsePreview("preview")).toBeNull();
  });

  test("malformed parts are dropped rather than drawn; an accent that is no colour is not set", () => {
    const odd = {
      ...message,
      sender: { id: {}, name: "X" },
      button: { label: "Go", action: "js" },
      title: 3,
    };
    expect(parsePreview({ tag: TAG, type: "preview", message: odd, accent: "red;x:y" })).toEqual({
      message: { ...message, sender: null, button: null, title: null },
      accent: null,
    });
  });

  test("the query and the ready message", () => {
    expect(isPreviewQuery("?preview=1")).toBe(true);
    expect(isPreviewQuery("?key=mk_1")).toBe(false);
    expect(isPreviewReady({ tag: TAG, type: "preview-ready" })).toBe(true);
    expect(isPreviewReady({ tag: TAG, type: "ready" })).toBe(false);
  });

  test("a bot's test run is read line by line; a line it cannot draw refuses the whole post", () => {
    const lines = [
      { from: "bot", text: "Hi!" },
      { from: "visitor", text: "Hello" },
      { from: "bot", text: "Sales or support?", buttons: ["Sales", "Support"] },
    ];
    const post = {
      tag: TAG,
      type: "preview-bot",
      run: 2,
      sender: { name: "Ann", avatar: "" },
      lines,
      done: false,
    };
    expect(parseBotPreview({ ...post, accent: "#123456" })).toEqual({
      run: 2,
      sender: { name: "Ann", avatar: "" },
      lines,
      done: false,
      accent: "#123456",
    });
    expect(
      parseBotPreview({ ...post, lines: [{ from: "bot", text: "Email?", ask: "email" }] })?.lines,
    ).toEqual([{ from: "bot", text: "Email?", ask: "email" }]);
    expect(parseBotPreview({ ...post, lines: [{ from: "operator", text: "x" }] })).toBeNull();
    expect(parseBotPreview({ ...post, lines: [{ from: "bot" }] })).toBeNull();
    expect(parseBotPreview({ ...post, type: "preview" })).toBeNull();
    expect(isBotPreviewQuery("?preview=bot")).toBe(true);
    expect(isBotPreviewQuery("?preview=1")).toBe(false);
  });

  test("the visitor's answers come back with their run: a button by index, or a text", () => {
    const answer = (input: unknown, run: unknown = 3) =>
      parseBotAnswer({ tag: TAG, type: "preview-answer", run, input });
    expect(answer({ button: 1 })).toEqual({ run: 3, input: { button: 1 } });
    expect(answer({ text: "ann@example.test" })).toEqual({ run: 3, input: { text: "ann@example.test" } });
    expect(answer({ button: -1 })).toBeNull();
    expect(answer({ button: 1.5 })).toBeNull();
    expect(answer({ text: "x" }, "3")).toBeNull();
  });
});
