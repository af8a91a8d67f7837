import { describe, expect, it } from "vitest";
import { matchesQuery } from "./picker-parts";

describe("matchesQuery", () => {
  it("matches any text, case-insensitively, with the words in order", () => {
    expect(matchesQuery("", "Name")).toBe(true);
    expect(matchesQuery("  ", "Name")).toBe(true);
    expect(matchesQuery("ses", "Sessions", "$sessions")).toBe(true);
    expect(matchesQuery("SIGN up", "signup: first time")).toBe(true);
    expect(matchesQuery("up sign", "signup: first time")).toBe(false);
    expect(matchesQuery("$last", "Last seen", "$last_seen")).toBe(true);
    expect(matchesQuery("zzz", "Last seen", "$last_seen")).toBe(false);
  });
});
