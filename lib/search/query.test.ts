import { describe, expect, it } from "vitest";
import { containsPattern, markContains, matchedField, prefixUpper, splitMarked, tsQueryText } from "./query";

describe("search query helpers", () => {
  it("turns a query into words, the last a prefix, with no tsquery syntax left", () => {
    expect(tsQueryText("Refund  for ORDER")).toBe("refund & for & order:*");
    expect(tsQueryText("a & !b | (c:*")).toBe("a & b & c:*");
    expect(tsQueryText("¿Tienen soporte?")).toBe("tienen & soporte:*");
    expect(tsQueryText(" !& ")).toBeUndefined();
  });

  it("escapes LIKE's characters and bounds prefixes", () => {
    expect(containsPattern("50%_a\\b")).toBe("%50\\%\\_a\\\\b%");
    expect(prefixUpper("ab")).toBe("ac");
    expect(prefixUpper("a")).toBe("b");
  });

  it("splits marked excerpts and marks every occurrence in a field", () => {
    expect(splitMarked("x \u0002Foo\u0003 y")).toEqual([
      { text: "x ", match: false },
      { text: "Foo", match: true },
      { text: " y", match: false },
    ]);
    expect(markContains("Ann ANNA", "ann")).toEqual([
      { text: "Ann", match: true },
      { text: " ", match: false },
      { text: "ANN", match: true },
      { text: "A", match: false },
    ]);
  });

  it("names the field that matched, prefixes only (and no names) for short queries", () => {
    const u = { name: "Qa Smith", email: "qa@x.test", phone: null, userId: "u-1" };
    expect(matchedField(u, "smith")?.field).toBe("name");
    expect(matchedField(u, "Qa")?.field).toBe("email");
    expect(matchedField(u, "1")).toBeUndefined();
  });
});
