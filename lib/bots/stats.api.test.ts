import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { makeTestApp } from "../testing/server-test";
import { errorOf, ok } from "../users/testing";
import { warmUpVisitorApi } from "../messenger/testing";
import type { BotStats } from "./schemas";
import { clickButton, makeBot, visitorSays, visitorWrites } from "./testing";

it.beforeAll(warmUpVisitorApi);

const statsOf = async (a: TestApp, botId: number | string) =>
  ok<BotStats>(await a.api.get(`/api/v2/apps/${a.app.id}/bots/${botId}/stats`));

describe("bots: statistics", () => {
  it("counts runs by outcome, per day and per step: reached, and waiting now", async ({ server: s }) => {
    const a = await makeTestApp(s);
    const bot = await makeBot(a, { template: "lead_bot", start: { when: "always" } });
    expect(await statsOf(a, bot.id)).toMatchObject({
      bot: bot.id,
      runs: { started: 0, running: 0, handed_over: 0, closed: 0, taken_over: 0 },
      days: [],
    });

    // Answers both questions and is handed over.
    const yes = await visitorWrites(s, a);
    await clickButton(yes.v, yes.conversationId, "Yes, email me");
    await visitorSays(yes.v, yes.conversationId, "not an address");
    await visitorSays(yes.v, yes.conversationId, "ann@example.test");
    await visitorSays(yes.v, yes.conversationId, "Fjord Freight");
    // Declines, and is handed over.
    const no = await visitorWrites(s, a);
    await clickButton(no.v, no.conversationId, "No thanks");
    // Still choosing.
    await visitorWrites(s, a);
    // An operator answers first.
    const taken = await visitorWrites(s, a);
    ok(await a.api.postForm(`/api/conversations/${taken.conversationId}/reply`, { body: "Here!" }));

    const stats = await statsOf(a, bot.id);
    const runs = { started: 4, running: 1, handed_over: 2, closed: 0, taken_over: 1 };
    expect(stats.runs).toEqual(runs);
    expect(stats.days).toEqual([{ day: new Date().toISOString().slice(0, 10), ...runs }]);
    // The tree's steps in order; a question asked again is reached once.
    expect(stats.steps).toEqual([
      { step: "hello", reached: 4, waiting: 0 },
      { step: "reach", reached: 4, waiting: 1 },
      { step: "email", reached: 1, waiting: 0 },
      { step: "company", reached: 1, waiting: 0 },
      { step: "later", reached: 1, waiting: 0 },
      { step: "done", reached: 2, waiting: 0 },
    ]);
    expect(
      ok<{ figures: BotStats["runs"] }>(await a.api.get(`/api/v2/apps/${a.app.id}/bots/${bot.id}`)).figures,
    ).toEqual(runs);
  });

  it("another app's bot is not found", async ({ server: s, app: other }) => {
    const a = await makeTestApp(s);
    const bot = await makeBot(a, { template: "lead_bot" });
    errorOf(await other.api.get(`/api/v2/apps/${other.app.id}/bots/${bot.id}/stats`), 400, "LookupError");
  });
});
