import { describe, expect, it } from "vitest";
import { toJson } from "./json";

describe("toJson", () => {
  const body = { id: 9007199254740993n, list: [1n, { deep: 2n }], at: new Date(0), none: undefined, n: null };

  it("writes bigints as numbers, or as strings for id_as_string, at any depth", () => {
    expect(toJson(body, false)).toBe(
      '{"id":9007199254740992,"list":[1,{"deep":2}],"at":"1970-01-01T00:00:00.000Z","n":null}',
    );
    expect(toJson(body, true)).toBe(
      '{"id":"9007199254740993","list":["1",{"deep":"2"}],"at":"1970-01-01T00:00:00.000Z","n":null}',
    );
    expect(toJson(5n, true)).toBe('"5"');
  });

  it("leaves JSON.stringify as it was outside, even after a value that fails to serialize", () => {
    expect(() => JSON.stringify({ id: 1n })).toThrow(TypeError);
    const failing = {
      toJSON() {
        throw new Error("no");
      },
    };
    expect(() => toJson({ a: 1n, failing }, true)).toThrow("no");
    expect(() => JSON.stringify(1n)).toThrow(TypeError);
    expect(toJson({ a: 1n }, false)).toBe('{"a":1}');
    // A replacer of bigints elsewhere (Prisma has some) still receives them.
    expect(JSON.stringify({ a: 1n }, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v))).toBe(
      '{"a":"1n"}',
    );
  });
});
