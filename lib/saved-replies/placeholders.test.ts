import { describe, expect, it } from "vitest";
import { expandPlaceholders } from "./placeholders";

describe("expandPlaceholders", () => {
  it("fills both names", () => {
    expect(
      expandPlaceholders("Hi {{visitor_name}}, {{ operator_name }} here.", {
        visitor_name: "Ann",
        operator_name: "Bob",
      }),
    ).toBe("Hi Ann, Bob here.");
  });

  it("uses the fallback when a name is unknown or blank, and nothing without one", () => {
    expect(expandPlaceholders("Hi {{visitor_name|there}}!", {})).toBe("Hi there!");
    expect(expandPlaceholders("Hi {{visitor_name| friend }}!", { visitor_name: "  " })).toBe("Hi friend!");
    expect(expandPlaceholders("Hi {{visitor_name|there}}!", { visitor_name: "Ann" })).toBe("Hi Ann!");
    expect(expandPlaceholders("[{{operator_name}}]", { operator_name: null })).toBe("[]");
  });

  it("leaves unknown placeholders and stray braces as written", () => {
    expect(expandPlaceholders("{{order_id}} {visitor_name} {{visitor_name", { visitor_name: "Ann" })).toBe(
      "{{order_id}} {visitor_name} {{visitor_name",
    );
  });
});
