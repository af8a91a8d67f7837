import { describe, expect, test } from "vitest";
import { answerOf } from "./answers";

describe("a bot's answers", () => {
  test("email, phone and text", () => {
    expect(answerOf("$email", " ann@example.test ")).toBe("ann@example.test");
    expect(answerOf("$email", "ann@")).toBeNull();
    expect(answerOf("$phone", "+1 (555) 010-9999")).toBe("+1 (555) 010-9999");
    expect(answerOf("$phone", "1234")).toBeNull();
    expect(answerOf("company", "   ")).toBeNull();
    expect(answerOf("$name", "x".repeat(1001))).toBeNull();
    expect(answerOf("$name", "Ann")).toBe("Ann");
  });
});
