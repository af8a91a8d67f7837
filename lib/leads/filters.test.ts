import { describe, expect, it } from "vitest";
import { isDomainError } from "../domain/errors";
import { parseFilters } from "./filters";

function fieldsOf(raw: unknown): Record<string, string> {
  try {
    parseFilters(raw);
  } catch (err) {
    if (isDomainError(err)) {
      expect(err.kind).toBe("invalid");
      return err.fields ?? {};
    }
    throw err;
  }
  throw new Error("expected a ValidationError");
}

const c = (property_name: string, type: string, value: unknown = {}) => ({ property_name, type, value });

describe("parseFilters", () => {
  it("accepts every condition type on a property of its kind", () => {
    const tree = parseFilters({
      type: "and",
      filters: [
        c("$email", "known"),
        c("$phone", "unknown"),
        ...["eq", "neq", "gt", "gte", "lt", "lte", "gt_or_unknown", "lt_or_unknown"].map((t) =>
          c("$sessions", t, { value: 3 }),
        ),
        c("$sessions", "range", { value1: 1, value2: "5" }),
        ...["str_eq", "str_neq", "str_contains", "str_ncontains", "str_starts"].map((t) =>
          c("$name", t, { value: "an" }),
        ),
        c("trial", "bool_true"),
        c("trial", "bool_false"),
        c("$last_seen", "daysless", { value: 7 }),
        c("$event_3_last", "daysmore", { value: 7 }),
        c("$event_3_first", "date_gt", { value: 1_700_000_000 }),
        c("signup", "date_lt", { value: "2024-01-01" }),
        c("signup", "date_range", { value1: "2024-01-01", value2: 1_800_000_000 }),
        c("interests", "list_contains", { value: "ai" }),
        c("interests", "list_ncontains", { value: "ai" }),
        c("$segment", "in_segment", { value: 4 }),
        {
          type: "or",
          filters: [c("$tag", "tag", { value: "vip" }), c("$event_3_count", "gte", { value: 2 })],
        },
      ],
    });
    expect(tree.items).toHaveLength(27);
  });

  it("takes an array as an and group and a bare condition as a group of one", () => {
    expect(parseFilters([c("$email", "known")]).op).toBe("and");
    expect(parseFilters(c("$email", "known")).items).toHaveLength(1);
  });

  it("refuses a fourth level and a 31st condition, naming the field", () => {
    const deep = {
      type: "and",
      filters: [{ type: "or", filters: [{ type: "and", filters: [{ type: "or", filters: [] }] }] }],
    };
    expect(fieldsOf(deep)).toEqual({
      "filters.filters.0.filters.0.filters.0": "groups nest at most 3 levels",
    });
    const many = { type: "or", filters: Array.from({ length: 31 }, () => c("$email", "known")) };
    expect(fieldsOf(many)).toEqual({ "filters.filters.30": "filters hold at most 30 conditions in all" });
  });

  it("refuses types that do not fit the property and bad values", () => {
    expect(fieldsOf([c("$last_seen", "gt", { value: 1 })])["filters.0.type"]).toMatch(
      /gt does not apply to \$last_seen/,
    );
    expect(fieldsOf([c("$email", "daysless", { value: 1 })])["filters.0.type"]).toMatch(/does not apply/);
    expect(fieldsOf([c("$sessions", "str_eq", { value: "a" })])["filters.0.type"]).toMatch(/does not apply/);
    expect(fieldsOf([c("$tag", "known")])["filters.0.type"]).toMatch(/tag/);
    expect(fieldsOf([c("$nope", "known")])).toHaveProperty("filters.0.property_name");
    expect(fieldsOf([c("x", "frobnicate")])).toHaveProperty("filters.0.type");
    expect(fieldsOf([c("x", "eq", { value: "abc" })])).toEqual({
      "filters.0.value.value": "must be a number",
    });
    expect(fieldsOf([c("x", "range", { value1: 1 })])).toEqual({
      "filters.0.value.value2": "must be a number",
    });
    expect(fieldsOf([c("x", "date_gt", { value: "soon" })])).toHaveProperty("filters.0.value.value");
    expect(fieldsOf([c("x", "daysless", { value: -1 })])).toHaveProperty("filters.0.value.value");
    expect(fieldsOf([c("x", "str_eq", 5)])).toHaveProperty("filters.0.value");
    expect(fieldsOf([c("$tag", "tag", { value: "a,b" })])).toHaveProperty("filters.0.value.value");
    expect(fieldsOf([c("$segment", "in_segment", { value: {} })])).toHaveProperty("filters.0.value.value");
    expect(fieldsOf("nope")).toHaveProperty("filters");
    expect(fieldsOf([c("$name", "str_eq", { value: "a\u0000" })])).toEqual({
      filters: "must not contain NUL characters",
    });
    expect(fieldsOf({ type: "and", filters: "x" })).toHaveProperty("filters.filters");
  });
});
