import { describe, expect, it } from "vitest";
import { findMentions, unmatchedMentions } from "./mentions";

const ops = [
  { id: 1n, name: "Ann", email: "ann@example.test" },
  { id: 2n, name: "Ann Lee", email: "lee@example.test" },
  { id: 3n, name: "Bob", email: "bob@example.test" },
];

describe("findMentions", () => {
  it("finds names and emails, case-insensitively, at word starts", () => {
    expect(findMentions("@bob can you look?", ops)).toEqual([3n]);
    expect(findMentions("cc @ANN.", ops)).toEqual([1n]);
    expect(findMentions("ping @lee@example.test", ops)).toEqual([2n]);
  });

  it("prefers the longest name and never matches inside words or emails", () => {
    expect(findMentions("@Ann Lee please", ops)).toEqual([2n]);
    expect(findMentions("@Anna and x@bob", ops)).toEqual([]);
    expect(findMentions("no mention", ops)).toEqual([]);
    expect(findMentions("@Ann Lee and @Bob", ops).sort()).toEqual([2n, 3n]);
  });
});

describe("unmatchedMentions", () => {
  it("names the handles that match no operator, and only those", () => {
    expect(unmatchedMentions("@Bobb can you look? cc @Ann Lee", ops)).toEqual(["@Bobb"]);
    expect(unmatchedMentions("@bob, @ANN. and @lee@example.test", ops)).toEqual([]);
    expect(unmatchedMentions("@Anna please; @Anna again", ops)).toEqual(["@Anna"]);
  });

  it("leaves email addresses and a lone @ alone", () => {
    expect(unmatchedMentions("write to x@bob.example or @ noon", ops)).toEqual([]);
    expect(unmatchedMentions("no mention", ops)).toEqual([]);
  });
});
