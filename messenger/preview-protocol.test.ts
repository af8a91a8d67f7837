import { describe, expect, test } from "vitest";
import { isPreviewQuery, isPreviewReady, parsePreview } from "./preview-protocol";
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
});
