import { describe, expect } from "vitest";
import { it } from "../testing/fixture";

describe("GET/POST /apps/{id}/office_hours", () => {
  it("are always open until set, then read in the app's zone; null clears them; bad input is refused", async ({
    app: a,
    other,
  }) => {
    const path = `/api/apps/${a.app.id}/office_hours`;
    expect((await a.api.get(path)).body.data).toEqual({
      app: Number(a.app.id),
      time_zone: "UTC",
      office_hours: null,
      open_now: true,
    });
    // Closed every day, all day: a holiday each of the next days would do too, this says it plainly.
    const never = { weekly: {}, holidays: [] };
    const set = await a.api.postJson(path, { office_hours: never });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ office_hours: never, open_now: false });
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
    });

    const bad = await a.api.postJson(path, { office_hours: { weekly: { mon: [["9:00", "17:00"]] } } });
    expect(bad.status).toBe(400);
    expect(bad.body.meta.error).toBe("ValidationError");
    expect(JSON.stringify(bad.body.meta)).toContain("HH:MM");
    expect((await other.api.get(path)).status).toBe(403);
  });
});
