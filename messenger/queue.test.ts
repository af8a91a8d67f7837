import { describe, expect, test, vi } from "vitest";
import { carrotQueue, messageInteraction, replayQueue } from "./queue";

/** A call recorder in place of the loader's method table. */
function recorder() {
  const calls: [unknown, unknown[]][] = [];
  return { calls, call: (method: unknown, args: unknown[]) => void calls.push([method, args]) };
}

/** A real `arguments` object, as the two-push stub queues it. */
function args(...a: unknown[]): IArguments {
  const of = function (..._: unknown[]) {
    // The stubs push exactly this object, which rest parameters are not.
    // eslint-disable-next-line prefer-rest-params
    return arguments;
  };
  return of(...a);
}

describe("replayQueue", () => {
  test("two-push: a name, then its arguments object", () => {
    const r = recorder();
    replayQueue(["connect", args("mk_1"), "track", args("Viewed", { plan: "pro" })], r.call);
    expect(r.calls).toEqual([
      ["connect", ["mk_1"]],
      ["track", ["Viewed", { plan: "pro" }]],
    ]);
  });

  test("one-tuple: one array per call, the name first", () => {
    const r = recorder();
    replayQueue([["connect", "mk_1"], ["auth", "u1", "hash"], ["open"]], r.call);
    expect(r.calls).toEqual([
      ["connect", ["mk_1"]],
      ["auth", ["u1", "hash"]],
      ["open", []],
    ]);
  });

  test("identify's operations array is an argument, not a call, in either shape", () => {
    const ops = [{ op: "add", key: "visits", value: 1 }];
    const r = recorder();
    replayQueue([["identify", ops], "identify", args(ops), "identify", [ops]], r.call);
    expect(r.calls).toEqual([
      ["identify", [ops]],
      ["identify", [ops]],
      ["identify", [ops]],
    ]);
  });

  test("a mixed queue, a name pushed alone, and an unreadable entry that is skipped with a warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const r = recorder();
    replayQueue([["track", "x"], "open", "track", args("y"), 42, ["close"]], r.call);
    expect(r.calls).toEqual([
      ["track", ["x"]],
      ["open", []],
      ["track", ["y"]],
      ["close", []],
    ]);
    expect(warn).toHaveBeenCalledOnce();
  });
});

describe("the queues after load", () => {
  test("carrotQueue runs each push at once, both shapes", () => {
    const r = recorder();
    const q = carrotQueue(r.call);
    q.push(["track", "a", { n: 1 }]);
    q.push("track", args("b"));
    expect(r.calls).toEqual([
      ["track", ["a", { n: 1 }]],
      ["track", ["b"]],
    ]);
  });

  test("Relay's queue: each entry one call's arguments; one without a name is skipped with a warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const r = recorder();
    replayQueue([args("auth", "u1", "h"), args(), args(42, "x"), args("open")], r.call);
    expect(r.calls).toEqual([
      ["auth", ["u1", "h"]],
      ["open", []],
    ]);
    expect(warn).toHaveBeenCalledTimes(2);
  });
});

describe("messageInteraction", () => {
  test.each([
    [42, "read", { send: "42", action: "read" }],
    ["42", "clicked", { send: "42", action: "click" }],
    [" 7 ", "click", { send: "7", action: "click" }],
  ])("%j, %j", (id, type, expected) => {
    expect(messageInteraction(id, type)).toEqual(expected);
  });

  test.each([
    ["{{ sending_id }}", "read"],
    [0, "read"],
    [-3, "read"],
    [1.5, "read"],
    [undefined, "read"],
    ["42", "replied"],
    ["42", "toString"],
    ["42", undefined],
  ])("%j, %j is refused", (id, type) => {
    expect(messageInteraction(id, type)).toHaveProperty("refused");
  });
});
