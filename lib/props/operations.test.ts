import { describe, expect, it } from "vitest";
import { applyOperations, type PropsState } from "./operations";
import { detectType, parseDateTime } from "../user-model/prop-values";

const empty = (): PropsState => ({ system: { $sessions: 0 }, custom: {} });
const run = (ops: unknown[], state = empty(), parseTypes = true) =>
  applyOperations(state, ops, { parseTypes });

describe("applyOperations", () => {
  it("applies the seven operations in order, several on one prop", () => {
    const r = run([
      { op: "update_or_create", key: "plan", value: "pro" },
      { op: "set_once", key: "plan", value: "free" },
      { op: "set_once", key: "first_plan", value: "pro" },
      { op: "add", key: "visits", value: 2 },
      { op: "add", key: "visits", value: 3 },
      { op: "append", key: "pages", value: "/a" },
      { op: "append", key: "pages", value: ["/b", "/a"] },
      { op: "union", key: "pages", value: ["/a", "/c", "/c"] },
      { op: "exclude", key: "pages", value: "/b" },
      { op: "update_or_create", key: "gone", value: 1 },
      { op: "delete", key: "gone" },
    ]);
    expect(r.ignored).toEqual([]);
    expect(r.state.custom).toEqual({ plan: "pro", first_plan: "pro", visits: 5, pages: ["/a", "/a", "/c"] });
    expect(r.affected.sort()).toEqual(["first_plan", "pages", "plan", "visits"]);
    expect(r.notChanged).toEqual(["gone"]);
    expect(r.noop.map((n) => n.op)).toEqual(["set_once"]);
  });

  it("types system props and ignores a wrong type with a reason, applying the rest", () => {
    const r = run([
      { op: "update_or_create", key: "$name", value: "Ann" },
      { op: "update_or_create", key: "$name", value: 42 },
      { op: "update_or_create", key: "$email", value: "not-an-email" },
      { op: "update_or_create", key: "$sessions", value: "12" },
      { op: "update_or_create", key: "$sessions", value: "many" },
      { op: "add", key: "$sessions", value: 3 },
      { op: "update_or_create", key: "$last_seen", value: "2024-05-01T10:00:00" },
      { op: "update_or_create", key: "$last_seen", value: "yesterday" },
      { op: "add", key: "$name", value: 1 },
      { op: "append", key: "$city", value: "Paris" },
      { op: "update_or_create", key: "$user_id", value: "u1" },
      { op: "update_or_create", key: "$event_5_count", value: 1 },
      { op: "update_or_create", key: "$nope", value: 1 },
    ]);
    expect(r.state.system.$name).toBe("Ann");
    expect(r.state.system.$sessions).toBe(15);
    expect(r.state.system.$last_seen).toEqual(new Date("2024-05-01T10:00:00Z"));
    expect(r.ignored.map((i) => i.reason)).toEqual([
      "$name is a string property",
      "$email is not an email address",
      "$sessions is an integer property",
      "$last_seen is a date-time property (ISO 8601 or Unix seconds, years 1 to 9999)",
      "add needs a numeric property; $name is a string",
      "append needs a list property; $city is a string",
      "$user_id is read-only",
      "event properties are read-only",
      "unknown system property $nope",
    ]);
  });

  it("reports malformed operations without failing the others", () => {
    const r = run([
      "nope",
      { op: "explode", key: "a", value: 1 },
      { op: "update_or_create", value: 1 },
      { op: "update_or_create", key: "x".repeat(256), value: 1 },
      { op: "update_or_create", key: "ok", value: "yes" },
      { op: "update_or_create", key: "empty", value: "" },
      { op: "update_or_create", key: "obj", value: { a: 1 } },
      { op: "update_or_create", key: "long", value: "x".repeat(256) },
      { op: "update_or_create", key: "big", value: 2 ** 54 },
      { op: "append", key: "ok", value: "z" },
      { op: "add", key: "ok", value: 1 },
      { op: "add", key: "n", value: "abc" },
      { op: "append", key: "l", value: [1, 2] },
      { op: "update_or_create", key: "list", value: Array.from({ length: 31 }, (_, i) => `v${i}`) },
      { op: "update_or_create", key: "nul", value: "a\u0000b" },
    ]);
    expect(r.state.custom).toEqual({ ok: "yes" });
    expect(r.ignored).toHaveLength(14);
    expect(r.ignored[13]!.reason).toBe("contains a NUL character");
    expect(r.ignored[0]!.reason).toMatch(/object/);
    expect(r.ignored[1]!.reason).toMatch(/unknown op/);
    expect(r.ignored[2]!.reason).toMatch(/key/);
    expect(r.ignored[4]!.reason).toMatch(/empty value/);
    expect(r.ignored[6]!.reason).toMatch(/255/);
    expect(r.ignored[7]!.reason).toMatch(/2\^53/);
    expect(r.ignored[8]!.reason).toMatch(/not a list/);
    expect(r.ignored[12]!.reason).toMatch(/at most 30/);
  });

  it("detects custom types unless told not to", () => {
    const ops = ["42", "-7", "007", "1.5", "TRUE", "2024-05-01", "2024-05-01T10:00:00+02:00", "hello"].map(
      (v, i) => ({
        op: "update_or_create",
        key: `k${i}`,
        value: v,
      }),
    );
    expect(Object.values(run(ops).state.custom)).toEqual([
      42,
      -7,
      "007",
      1.5,
      true,
      "2024-05-01T00:00:00",
      "2024-05-01T08:00:00",
      "hello",
    ]);
    expect(Object.values(run(ops, empty(), false).state.custom)).toEqual(ops.map((o) => o.value));
  });

  it("keeps sums within range and integers exact", () => {
    const r = run([
      { op: "add", key: "n", value: 0.5 },
      { op: "add", key: "n", value: "1.25" },
      { op: "add", key: "$sessions", value: -1 },
    ]);
    expect(r.state.custom.n).toBe(1.75);
    expect(r.ignored.map((i) => i.reason)).toEqual(["$sessions would leave 0 to 2147483647"]);
  });
});

describe("values", () => {
  it("parses date-times strictly", () => {
    expect(parseDateTime("2024-02-30T00:00:00")).toBeUndefined();
    expect(parseDateTime(1_700_000_000)?.toISOString()).toBe("2023-11-14T22:13:20.000Z");
    expect(parseDateTime("1700000000")?.getTime()).toBe(1_700_000_000_000);
    expect(parseDateTime("2024-01-01 10:00")?.toISOString()).toBe("2024-01-01T10:00:00.000Z");
    // 64-bit integers are kept exactly (bigints beyond 2^53); beyond 64 bits the digits stay text.
    expect(detectType("9007199254740993")).toBe(9007199254740993n);
    expect(detectType("9007199254740991")).toBe(9007199254740991);
    expect(detectType("9223372036854775808")).toBe("9223372036854775808");
  });
});
