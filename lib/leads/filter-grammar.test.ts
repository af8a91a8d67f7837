import { describe, expect, it } from "vitest";
import { COND_TYPES, operatorsFor, valueKind, type CondType, type OperandKind } from "./filter-grammar";
import { parseFilters } from "./filters";

const SAMPLE_VALUE: Record<ReturnType<typeof valueKind>, unknown> = {
  none: {},
  number: { value: 1 },
  numbers: { value1: 1, value2: 2 },
  text: { value: "a" },
  days: { value: 7 },
  date: { value: "2026-01-31T12:00:00Z" },
  dates: { value1: 1, value2: 2 },
  segment: { value: 4 },
};

function accepted(prop: string, type: CondType): boolean {
  try {
    parseFilters({ property_name: prop, type, value: SAMPLE_VALUE[valueKind(type)] });
    return true;
  } catch {
    return false;
  }
}

describe("the filter grammar", () => {
  it("offers in the panel exactly the conditions the parser accepts on each kind of property", () => {
    const samples: [string, OperandKind][] = [
      ["$email", "string"],
      ["$sessions", "integer"],
      ["$last_seen", "datetime"],
      ["$event_1_count", "integer"],
      ["$event_1_last", "datetime"],
      ["$segment", "segment"],
      ["$tag", "tag"],
    ];
    for (const [prop, kind] of samples) {
      expect(COND_TYPES.filter((t) => accepted(prop, t)).sort()).toEqual(operatorsFor(kind).sort());
    }
  });

  it("lets a custom prop of any type take its type's conditions (custom props are untyped)", () => {
    for (const kind of ["string", "integer", "float", "boolean", "datetime", "list"] as const) {
      for (const t of operatorsFor(kind)) expect(accepted("plan", t)).toBe(true);
    }
  });
});
