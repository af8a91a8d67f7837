import { describe, expect, test } from "vitest";
import { EMPTY_FILTER } from "@/lib/client/lead-filters";
import type { FilterCondition } from "@/lib/leads/filter-grammar";
import { audienceOf, audienceToWrite, INCOMPLETE_AUDIENCE } from "./audience";

const known: FilterCondition = { property_name: "$email", type: "known", value: {} };
const open: FilterCondition = { property_name: "$email", type: "str_contains", value: {} };

describe("an audience to and from the API", () => {
  test("read back: a group as it is, a bare list as an and group, anything else everyone", () => {
    const g = { type: "or" as const, filters: [known] };
    expect(audienceOf(g)).toEqual(g);
    expect(audienceOf([known, null])).toEqual({ type: "and", filters: [known] });
    expect(audienceOf(null)).toEqual(EMPTY_FILTER);
    expect(audienceOf("everyone")).toEqual(EMPTY_FILTER);
  });

  test("written: no condition is null; an empty group is dropped; a condition without a value is refused", () => {
    expect(audienceToWrite(EMPTY_FILTER)).toEqual({ ok: true, audience: null });
    expect(audienceToWrite({ type: "and", filters: [{ type: "or", filters: [] }] })).toEqual({
      ok: true,
      audience: null,
    });
    expect(audienceToWrite({ type: "and", filters: [known, { type: "or", filters: [] }] })).toEqual({
      ok: true,
      audience: { type: "and", filters: [known] },
    });
    expect(audienceToWrite({ type: "or", filters: [known, { type: "and", filters: [open] }] })).toEqual({
      ok: false,
      error: INCOMPLETE_AUDIENCE,
    });
  });
});
