import { describe, expect, it } from "vitest";
import { isRetryableConflict } from "./conflicts";

describe("isRetryableConflict", () => {
  it("holds for a deadlock and a serialization failure, raw or through Prisma, and nothing else", () => {
    for (const code of ["40P01", "40001", "P2034"]) expect(isRetryableConflict({ code }), code).toBe(true);
    for (const err of [{ code: "23505" }, { code: "P2002" }, new Error("x"), null, undefined, "40P01"])
      expect(isRetryableConflict(err), JSON.stringify(err)).toBe(false);
  });
});
