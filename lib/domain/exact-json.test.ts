import { describe, expect, it } from "vitest";
import {
  exactInteger,
  integerOfNumberText,
  parseExactJson,
  parseParamsJson,
  stringifyExact,
} from "./exact-json";
import { JsonInteger, toJson } from "./json";

describe("exact JSON", () => {
  it("knows the integer a number's text denotes", () => {
    expect(
      ["9007199254740993", "-0", "12.0", "1.50e1", "1e20", "9007199254740993.000"].map(integerOfNumberText),
    ).toEqual([9007199254740993n, 0n, 12n, 15n, 10n ** 20n, 9007199254740993n]);
    expect(["0.5", "123.456e2", "1e-3", "1e400"].map(integerOfNumberText)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("reads parameters as JSON.parse does, keeping long integers' digits beside their doubles", () => {
    const text = '{"ops":[{"value":9007199254740993},{"value":-12e14},{"value":1.5}],"n":123456789012345678}';
    const v = parseParamsJson(text) as { ops: { value: unknown }[]; n: number };
    expect(v).toEqual(JSON.parse(text));
    expect(v.ops.map((o) => exactInteger(o, "value"))).toEqual([9007199254740993n, undefined, undefined]);
    expect(exactInteger(v, "n")).toBe(123456789012345678n);
    expect(() => parseParamsJson('{"a":1,')).toThrow(SyntaxError);
  });

  it("reads and writes stored JSON with long integers as bigints", () => {
    const text = '{"big":-9223372036854775808,"f":0.1,"s":"12345678901234567","l":["a"]}';
    const v = parseExactJson(text);
    expect(v).toEqual({ big: -9223372036854775808n, f: 0.1, s: "12345678901234567", l: ["a"] });
    expect(stringifyExact(v)).toBe(text);
  });

  it("writes a JsonInteger's digits as a number in both of toJson's modes", () => {
    const body = { id: 5n, prop: new JsonInteger(9007199254740993n), s: "\\u0000json-integer:1" };
    expect(toJson(body, false)).toBe('{"id":5,"prop":9007199254740993,"s":"\\\\u0000json-integer:1"}');
    expect(toJson(body, true)).toBe('{"id":"5","prop":9007199254740993,"s":"\\\\u0000json-integer:1"}');
    expect(() => JSON.stringify(body)).toThrow(TypeError);
  });
});
