import { describe, expect, it } from "vitest";
import { foreground, restAfter } from "./foreground";

describe("foreground", () => {
  it("is busy while a request is held and a moment after, only while the loop is loaded", () => {
    let t = 0;
    let loaded = true;
    const fg = foreground({ now: () => t, loaded: () => loaded });
    expect(fg.busy()).toBe(false);
    fg.enter();
    fg.enter();
    expect(fg.busy()).toBe(true);
    loaded = false;
    expect(fg.busy()).toBe(false);
    loaded = true;
    fg.leave();
    t = 500;
    expect(fg.busy()).toBe(true);
    fg.leave();
    t = 599;
    expect(fg.busy()).toBe(true);
    t = 600;
    expect(fg.busy()).toBe(false);
  });

  it("rests four times a job's length at a share of a fifth", () => {
    expect(restAfter(10)).toBe(40);
    expect(restAfter(10, 0.5)).toBe(10);
  });
});
