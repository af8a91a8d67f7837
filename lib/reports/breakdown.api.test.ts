import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { fails, ok } from "../conversations/testing";
import { breakdownReportSchema } from "./schemas";
import { BREAKDOWN_DAY, breakdownHistory } from "./testing";

const DAY = BREAKDOWN_DAY;

const row = (
  key: string | null,
  name: string,
  started: number,
  closed: number,
  first_response_count: number,
  first_response_median: number | null,
) => ({ key, name, started, closed, first_response_count, first_response_median });

describe("GET /apps/{id}/reports/breakdown", () => {
  it("splits the range by channel and by tag, with the operator's work", async ({ server: s, app: a }) => {
    ok(await a.api.postForm(`/api/apps/${a.app.id}/settings`, { time_zone: "UTC" }));
    const { A, X, Y } = await breakdownHistory(s, a);
    const get = async (q: Record<string, string>) => {
      const d = ok(await a.api.get(`/api/apps/${a.app.id}/reports/breakdown`, { from: DAY, to: DAY, ...q }));
      expect(() => breakdownReportSchema.parse(d)).not.toThrow();
      return d;
    };
    const byChannel = await get({ by: "channel" });
    expect(byChannel.by).toBe("channel");
    expect(byChannel.series).toEqual([
      row(String(X.id), "Email desk", 2, 1, 2, 270),
      row(String(Y.id), Y.name, 1, 1, 1, 60),
      row(null, "", 1, 0, 0, null),
    ]);
    // A conversation counts under each of its tags: billing and vip share the first one.
    expect((await get({ by: "tag" })).series).toEqual([
      row("billing", "billing", 2, 1, 2, 270),
      row("vip", "vip", 2, 1, 1, 300),
      row(null, "", 1, 1, 1, 60),
    ]);
    // A's work: the two conversations A first owned, the close A made, the first responses A gave.
    expect((await get({ by: "channel", operator: String(A) })).series).toEqual([
      row(String(X.id), "Email desk", 2, 1, 1, 300),
      row(String(Y.id), Y.name, 0, 0, 1, 60),
    ]);
    expect((await get({ by: "tag", channel: String(X.id) })).series).toEqual([
      row("billing", "billing", 2, 1, 2, 270),
      row("vip", "vip", 1, 1, 1, 300),
    ]);
  });

  it("refuses an unknown split", async ({ app: a }) => {
    fails(
      await a.api.get(`/api/apps/${a.app.id}/reports/breakdown`, { from: DAY, to: DAY, by: "country" }),
      400,
      "ValidationError",
      "by",
    );
  });
});
