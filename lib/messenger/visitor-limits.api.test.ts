import { describe, expect } from "vitest";
import { serverTest } from "../testing/server-test";
import { errorOf, ok } from "../users/testing";
import { bootTestVisitor } from "./testing";
import type { Called } from "../testing/server";
import type { VisitorConversation } from "./visitor-schemas";

// Budgets set low: 3 a minute per visitor (per device for boot), 6 per client address (every test call comes from
// 127.0.0.1, so they all share that one).
const it = serverTest({ messengerVisitorPerMinute: 3, messengerAddressPerMinute: 6 });
const BASE = "/api/v2/messenger/conversations";

/** The first 429 of up to five calls (others are boots with an unknown key: 401). */
async function firstRefusal(call: () => Promise<Called>): Promise<Called> {
  let last: Called | undefined;
  for (let i = 0; i < 5; i++) {
    last = await call();
    if (last.status === 429) return last;
  }
  return last!;
}

describe("messenger rate limits", () => {
  // The file's server starts inside this, its only test: hence the longer timeout.
  it(
    "throttles a visitor's messages, then the address's boots, with Retry-After",
    { timeout: 120_000 },
    async ({ server, app }) => {
      const v = await bootTestVisitor(server, app); // address: 1
      const { conversation } = ok<{ conversation: VisitorConversation }>(
        await v.api.postJson(BASE, { body: "one" }), // visitor: 1, address: 2
      );
      const reply = () => v.api.postJson(`${BASE}/${conversation.id}/reply`, { body: "again" });
      ok(await reply()); // 2, 3
      ok(await reply()); // 3, 4
      // Buckets refill slowly (3 a minute): a slow run may earn one more before the refusal.
      const refused = await firstRefusal(reply);
      errorOf(refused, 429, "Throttled");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      // Reads are not budgeted here.
      ok(await v.api.get(`${BASE}/${conversation.id}/parts`));
      // New devices each have a budget of their own, but share the address's.
      const boot = () =>
        server.call("/api/v2/messenger/boot", {
          method: "POST",
          json: { key: "any", device_id: `${"x".repeat(20)}${Math.random().toString(36).slice(2)}` },
        });
      const throttled = await firstRefusal(boot);
      errorOf(throttled, 429, "Throttled");
      expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    },
  );
});
