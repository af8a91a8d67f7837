import { describe, expect } from "vitest";
import { serverTest } from "../testing/server-test";
import type { Called } from "../testing/server";
import { errorOf, ok } from "../users/testing";
import { bootTestVisitor, warmUpVisitorApi, type TestVisitor } from "./testing";
import type { VisitorConversation } from "./visitor-schemas";

// Typing and track budgets set low: 3 a minute per visitor, so 30 per client address (every test call comes from
// 127.0.0.1). Messages keep the test server's own large budget: typing and tracking never draw on it.
const it = serverTest({ messengerTypingPerMinute: 3, messengerTrackPerMinute: 3 });
const BASE = "/api/v2/messenger/conversations";

it.beforeAll(warmUpVisitorApi);

/**
 * Calls up to `max` times, until the first 429: the refusal (if any) and how many calls were allowed before it.
 * Buckets refill slowly (3 a minute): a slow run may earn one more call before the refusal.
 */
async function untilRefused(call: () => Promise<Called>, max = 5) {
  for (let allowed = 0; allowed < max; allowed++) {
    const r = await call();
    if (r.status === 429) return { refused: r, allowed };
    ok(r);
  }
  return { refused: undefined, allowed: max };
}

function expectThrottled(r: Called | undefined): void {
  if (!r) throw new Error("expected a 429, every call was allowed");
  errorOf(r, 429, "Throttled");
  expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
}

const track =
  (v: TestVisitor, name = "clicked") =>
  () =>
    v.api.postJson("/api/v2/messenger/track", { name, params: { n: 1 } });

describe("the messenger's typing and track budgets", () => {
  it("refuses a visitor's typing over its budget, not another visitor's nor its messages", async ({
    server,
    app,
  }) => {
    const start = async (v: TestVisitor) =>
      ok<{ conversation: VisitorConversation }>(await v.api.postJson(BASE, { body: "hi" })).conversation;
    const a = await bootTestVisitor(server, app);
    const b = await bootTestVisitor(server, app);
    const [ca, cb] = [await start(a), await start(b)];
    const typing = (v: TestVisitor, id: number | string) => () =>
      v.api.postJson(`${BASE}/${id}/typing`, { body: "I was wonder" });

    const { refused, allowed } = await untilRefused(typing(a, ca.id));
    expectThrottled(refused);
    expect(allowed).toBeGreaterThanOrEqual(3);
    // Another visitor at the same address types on; the refused one can still send its message.
    ok(await typing(b, cb.id)());
    ok(await a.api.postJson(`${BASE}/${ca.id}/reply`, { body: "I was wondering" }));
  });

  it("refuses a visitor's events over its budget, stores none of the excess, and spares another visitor", async ({
    server,
    app,
  }) => {
    const a = await bootTestVisitor(server, app);
    const b = await bootTestVisitor(server, app);
    const { refused, allowed } = await untilRefused(track(a));
    expectThrottled(refused);
    expect(allowed).toBeGreaterThanOrEqual(3);
    const events = ok<unknown[]>(await app.api.get(`/api/v2/users/${a.boot.visitor.id}/events`));
    expect(events).toHaveLength(allowed);
    ok(await track(b)());
  });

  it("caps one address's visitors together: new visitors do not bring new budgets without end", async ({
    server,
    app,
  }) => {
    // The address's 30 a minute run out before ten fresh visitors have each used their own 3.
    let refused: Called | undefined;
    let allowed = 0;
    for (let i = 0; i < 20 && !refused; i++) {
      ({ refused, allowed } = await untilRefused(track(await bootTestVisitor(server, app)), 3));
    }
    expectThrottled(refused);
    // Refused with its own budget not spent: the address's did it.
    expect(allowed).toBeLessThan(3);
  });
});
