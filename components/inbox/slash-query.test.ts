import { describe, expect, it } from "vitest";
import { matchSavedReplies, slashQueryAt } from "./slash-query";

describe("slashQueryAt", () => {
  it("finds a slash at the start of the text or of a word, up to the caret", () => {
    expect(slashQueryAt("/ref", 4)).toEqual({ start: 0, end: 4, query: "ref" });
    expect(slashQueryAt("Hi /", 4)).toEqual({ start: 3, end: 4, query: "" });
    expect(slashQueryAt("Hi\n/re more", 6)).toEqual({ start: 3, end: 6, query: "re" });
  });

  it("ignores slashes inside words and words already ended", () => {
    expect(slashQueryAt("and/or", 6)).toBeNull();
    expect(slashQueryAt("https://x.test/a", 16)).toBeNull();
    expect(slashQueryAt("/ref done", 9)).toBeNull();
  });
});

describe("matchSavedReplies", () => {
  const all = [
    { shortcut: "hello", title: "Greeting" },
    { shortcut: "refund", title: "Money back" },
    { shortcut: "shipping", title: "Where is my refund" },
  ];
  it("puts shortcut prefixes first, then contained shortcuts, then titles", () => {
    expect(matchSavedReplies(all, "ref").map((r) => r.shortcut)).toEqual(["refund", "shipping"]);
    expect(matchSavedReplies(all, "in").map((r) => r.shortcut)).toEqual(["shipping", "hello"]);
    expect(matchSavedReplies(all, "").map((r) => r.shortcut)).toEqual(["hello", "refund", "shipping"]);
    expect(matchSavedReplies(all, "zzz")).toEqual([]);
  });
});
