import { describe, expect, it } from "vitest";
import { findBadText } from "./zod";

describe("findBadText", () => {
  it("names where the first bad text is: the value's path, or a bad key's container", () => {
    expect(findBadText({ a: "fine", b: [1, { c: "x\ud800" }] })).toEqual({
      path: "b.1.c",
      problem: "must be valid Unicode (a lone surrogate)",
    });
    expect(findBadText({ a: { ["k\u0000"]: 1 } })).toEqual({
      path: "a",
      problem: "keys must be valid Unicode without NUL",
    });
    expect(findBadText({ ["\udfff"]: 1 })).toEqual({
      path: "params",
      problem: "keys must be valid Unicode without NUL",
    });
    expect(findBadText("a\u0000")).toEqual({ path: "params", problem: "must not contain NUL characters" });
    // A path left by a sibling that was fine does not leak into the next one's.
    expect(findBadText({ a: { b: "ok" }, c: "\u0000" })?.path).toBe("c");
  });

  it("passes good text, and NUL when told to leave it to the parameter's own rule", () => {
    expect(findBadText({ a: ["x", { b: "\ud83d\ude00" }], n: 1, z: null })).toBeUndefined();
    expect(findBadText({ a: "x\u0000", ["k\u0000"]: 1 }, { nul: false })).toBeUndefined();
  });
});
