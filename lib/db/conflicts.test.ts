import { describe, expect, it } from "vitest";
import { isRetryableConflict, retryingConflicts } from "./conflicts";

describe("isRetryableConflict", () => {
  it("holds for a deadlock and a serialization failure, raw or through Prisma, and nothing else", () => {
    const adapter = (originalCode: string) => ({
      code: "P2010",
      meta: { driverAdapterError: { cause: { originalCode } } },
    });
    for (const err of [
      { code: "40P01" },
      { code: "40001" },
      { code: "P2034" },
      adapter("40P01"),
      { code: "P2010", meta: { code: "40001" } },
      { cause: { code: "40P01" } },
    ])
      expect(isRetryableConflict(err), JSON.stringify(err)).toBe(true);
    for (const err of [
      { code: "23505" },
      { code: "P2002" },
      adapter("23505"),
      new Error("x"),
      null,
      undefined,
      "40P01",
    ])
      expect(isRetryableConflict(err), JSON.stringify(err)).toBe(false);
  });
});

/** An error as the pg driver raises it: an Error with a SQLSTATE `code`. */
const pgError = (code: string, n: number) => Object.assign(new Error(code), { code, n });

describe("retryingConflicts", () => {
  it("runs again after a conflict, at most three times, and never after another error", async () => {
    let runs = 0;
    const conflictTwice = () => (++runs < 3 ? Promise.reject(pgError("40P01", runs)) : Promise.resolve(runs));
    await expect(retryingConflicts(conflictTwice)).resolves.toBe(3);
    runs = 0;
    await expect(retryingConflicts(() => Promise.reject(pgError("40001", ++runs)))).rejects.toMatchObject({
      n: 3,
    });
    runs = 0;
    await expect(retryingConflicts(() => Promise.reject(pgError("23505", ++runs)))).rejects.toMatchObject({
      n: 1,
    });
  });
});
