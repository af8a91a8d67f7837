import vm from "node:vm";
import { describe, expect, test } from "vitest";
import { installSnippet } from "./install-snippet";
import { API_METHODS, replayQueue } from "../../messenger/queue";

const snippet = installSnippet("https://relay.example.com", "mk_abc");

/** The snippet's inline stub run as a page would run it, with `page` after it; the window it leaves. */
function runStub(page: string, window: Record<string, unknown> = {}) {
  const inline = /<script>([\s\S]*?)<\/script>/.exec(snippet)?.[1];
  if (inline === undefined) throw new Error("no inline stub");
  const context = vm.createContext(window);
  context.window = context;
  vm.runInContext(inline + page, context);
  return context;
}

describe("installSnippet", () => {
  test("ends with the async loader, its key on it", () => {
    expect(snippet.split("\n").at(-1)).toBe(
      '<script async src="https://relay.example.com/messenger.js" data-key="mk_abc"></script>',
    );
  });

  test("a call right after it is queued, in an order and shape the loader replays", () => {
    const w = runStub(`
      carrotquest.connect("mk_abc");
      carrotquest.auth("u1", "hash");
      carrotquest.trackMessageInteraction("42", "read");
      Relay("track", "Viewed", { plan: "pro" });`);
    const calls: [unknown, unknown[]][] = [];
    const call = (method: unknown, args: unknown[]) => void calls.push([method, args]);
    replayQueue(w.carrotquestasync as unknown[], call);
    replayQueue((w.Relay as { q: ArrayLike<unknown>[] }).q, call);
    expect(calls).toEqual([
      ["connect", ["mk_abc"]],
      ["auth", ["u1", "hash"]],
      ["trackMessageInteraction", ["42", "read"]],
      ["track", ["Viewed", { plan: "pro" }]],
    ]);
  });

  test("stubs every method of the JS API", () => {
    const w = runStub("");
    expect(Object.keys(w.carrotquest as object).sort()).toEqual([...API_METHODS].sort());
  });

  test("leaves a site's own carrotquest stub and queue alone", () => {
    const own = { auth: () => undefined };
    const queue = [["connect", "mk_x"]];
    const w = runStub("", { carrotquest: own, carrotquestasync: queue });
    expect(w.carrotquest).toBe(own);
    expect(w.carrotquestasync).toBe(queue);
  });
});
