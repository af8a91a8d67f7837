import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { hoursOpeningIn } from "./testing";

describe("GET/POST /apps/{id}/office_hours", () => {
  it("are always open until set, then read in the app's zone with the next opening; null clears them; bad input is refused", async ({
    app: a,
    other,
  }) => {
    const path = `/api/apps/${a.app.id}/office_hours`;
    expect((await a.api.get(path)).body.data).toEqual({
      app: Number(a.app.id),
      time_zone: "UTC",
      office_hours: null,
      open_now: true,
      opens_at: null,
    });
    // Closed every day, all day: a holiday each of the next days would do too, this says it plainly.
    const never = { weekly: {}, holidays: [] };
    const set = await a.api.postJson(path, { office_hours: never });
    expect(set.status).toBe(200);
    // Never opening within the 14 days ahead: no time to tell.
    expect(set.body.data).toMatchObject({ office_hours: never, open_now: false, opens_at: null });
    const always = {
      weekly: Object.fromEntries(
        ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((d) => [d, [["00:00", "23:59"]]]),
      ),
    };
    // As a form parameter too: JSON in a string.
    const form = await a.api.postForm(path, { office_hours: JSON.stringify(always) });
    expect(form.body.data).toMatchObject({ office_hours: always });
    expect((await a.api.postJson(path, { office_hours: null })).body.data).toMatchObject({
      office_hours: null,
      open_now: true,
      opens_at: null,
    });

    // One hour a week, starting two hours from now (UTC, the app's zone): closed, and opening then.
    const later = hoursOpeningIn(2 * 3_600_000);
    expect((await a.api.postJson(path, { office_hours: later.hours })).body.data).toMatchObject({
      open_now: false,
      opens_at: later.opensAt.toISOString(),
    });
    expect((await a.api.get(path)).body.data).toMatchObject({ opens_at: later.opensAt.toISOString() });

    const bad = await a.api.postJson(path, { office_hours: { weekly: { mon: [["9:00", "17:00"]] } } });
    expect(bad.status).toBe(400);
    expect(bad.body.meta.error).toBe("ValidationError");
    expect(JSON.stringify(bad.body.meta)).toContain("HH:MM");
    // Each error names its field by path, so a form can show it beside the range or date it is about.
    const empty = await a.api.postJson(path, {
      office_hours: {
        weekly: {
          tue: [
            ["09:00", "12:00"],
            ["14:00", "14:00"],
          ],
        },
        holidays: ["2026-02-30x"],
      },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.meta.error_fields).toEqual({
      "office_hours.weekly.tue.1": "must not start and end at the same time",
      "office_hours.holidays.0": "must be a date YYYY-MM-DD",
    });
    expect((await other.api.get(path)).status).toBe(403);
  });
});
