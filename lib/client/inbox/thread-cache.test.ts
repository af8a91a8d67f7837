import { describe, expect, it } from "vitest";
import {
  addPart,
  addPending,
  clickedButtons,
  pendingPart,
  threadParts,
  type PartPages,
} from "./thread-cache";
import type { Part } from "./types";

function part(id: number, over: Partial<Part> = {}): Part {
  return {
    id,
    created: id,
    conversation: 1,
    body: `part ${id}`,
    read: true,
    direction: "u2a",
    type: "reply_user",
    from: 5,
    random_id: 0,
    ...over,
  };
}

const me = { id: 2, name: "Op", avatar: "", type: "admin" as const };
const data = (...items: Part[]): PartPages => ({ pages: [{ items, next: null }], pageParams: [null] });
const bodies = (d: PartPages) => threadParts(d).map((p) => String(p.id));

describe("optimistic sends", () => {
  it("shows a reply once whether the socket echo or the answer comes first, or both", () => {
    const pending = pendingPart({
      conversation: "1",
      randomId: 77,
      body: "hi",
      type: "reply_admin",
      from: me,
    });
    const confirmed = part(12, {
      direction: "a2u",
      type: "reply_admin",
      body: "hi",
      random_id: 77,
      from: me,
    });
    const start = addPending(data(part(11), part(10)), pending);
    expect(bodies(start)).toEqual(["10", "11", "pending-77"]);
    const echoed = addPart(start, confirmed);
    expect(bodies(echoed)).toEqual(["10", "11", "12"]);
    expect(bodies(addPart(echoed, confirmed))).toEqual(["10", "11", "12"]);
  });

  it("keeps a newer part from someone else after the pending one, in ID order", () => {
    const pending = pendingPart({ conversation: "1", randomId: 5, body: "x", type: "note", from: me });
    let d = addPending(data(part(10)), pending);
    d = addPart(d, part(11));
    d = addPart(d, part(12, { type: "note", direction: "a2u", random_id: 5, from: me }));
    expect(bodies(d)).toEqual(["10", "11", "12"]);
  });
});

describe("clickedButtons", () => {
  it("marks the button whose body and meta_data the visitor's next reply carries", () => {
    const actions = [
      { type: "quick_reply" as const, body: "Yes" },
      { type: "quick_reply" as const, body: "No", meta_data: { v: 0 } },
    ];
    const parts = [
      part(1, { direction: "a2u", type: "reply_admin", actions, from: me }),
      part(2, { body: "No", meta_data: { v: 0 } }),
    ];
    expect(clickedButtons(parts).get("1")).toBe(1);
    expect(clickedButtons([parts[0]!, part(3, { body: "Maybe" })]).size).toBe(0);
  });
});
