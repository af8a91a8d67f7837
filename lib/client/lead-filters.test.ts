import { describe, expect, it } from "vitest";
import { EXPORT_MAX_ROWS as SERVER_EXPORT_MAX_ROWS } from "../leads/export-csv";
import { MAX_REACHABLE as SERVER_MAX_REACHABLE } from "../leads/list-leads";
import {
  appendAt,
  cleanFilter,
  EXPORT_MAX_ROWS,
  lastReachablePage,
  MAX_REACHABLE,
  moveAt,
  readQuery,
  removeAt,
  replaceAt,
  writeQuery,
} from "./lead-filters";
import { operatorsFor, valueKind, type FilterGroup } from "../leads/filter-grammar";

const tree: FilterGroup = {
  type: "and",
  filters: [
    { property_name: "$email", type: "str_contains", value: { value: "@acme" } },
    {
      type: "or",
      filters: [
        { property_name: "plan", type: "str_eq", value: { value: "pro" } },
        { property_name: "$sessions", type: "gt", value: { value: "" } },
      ],
    },
    { property_name: "$last_seen", type: "daysless", value: { value: 7 } },
  ],
};

describe("lead filters", () => {
  it("offers the operators of each type, with a matching value input", () => {
    expect(operatorsFor("string")).toContain("str_starts");
    expect(operatorsFor("integer")).toContain("range");
    expect(operatorsFor("datetime")).toContain("daysmore");
    expect(operatorsFor("boolean")).toEqual(["bool_true", "bool_false", "known", "unknown"]);
    expect(valueKind("range")).toBe("numbers");
    expect(valueKind("daysless")).toBe("days");
    expect(valueKind("bool_true")).toBe("none");
    expect(valueKind("list_contains")).toBe("text");
  });

  it("drops incomplete conditions and groups left empty", () => {
    const c = cleanFilter(tree);
    expect(c.filters).toHaveLength(3);
    expect((c.filters[1] as FilterGroup).filters).toHaveLength(1);
    const onlyBlank = replaceAt(tree, [1, 0], { property_name: "plan", type: "str_eq", value: {} });
    expect(cleanFilter(onlyBlank).filters).toHaveLength(2);
  });

  it("edits by path without touching the input", () => {
    const moved = moveAt(tree, [2], -1);
    expect((moved.filters[1] as { property_name: string }).property_name).toBe("$last_seen");
    expect(moveAt(tree, [0], -1)).toEqual(tree);
    const removed = removeAt(tree, [1, 1]);
    expect((removed.filters[1] as FilterGroup).filters).toHaveLength(1);
    const added = appendAt(tree, [1], { property_name: "$tag", type: "tag", value: { value: "vip" } });
    expect((added.filters[1] as FilterGroup).filters).toHaveLength(3);
    expect((tree.filters[1] as FilterGroup).filters).toHaveLength(2);
  });

  it("round-trips the view through the URL, writing only what is not default", () => {
    const q = { filters: tree, sort: "$name", order: "asc" as const, page: 3, size: 50 as const };
    const back = readQuery(new URLSearchParams(writeQuery(q)));
    expect(back).toEqual({ ...q, filters: cleanFilter(tree) });
    expect(
      writeQuery({
        filters: { type: "and", filters: [] },
        sort: "$last_seen",
        order: "desc",
        page: 1,
        size: 20,
      }),
    ).toBe("");
    expect(readQuery(new URLSearchParams("filters=%7Bnot-json&page=-2&size=7"))).toMatchObject({
      filters: { type: "and", filters: [] },
      page: 1,
      size: 20,
    });
  });

  it("knows the last page reachable under the 10,000 cap", () => {
    expect(lastReachablePage(45, 20)).toBe(3);
    expect(lastReachablePage(1_000_000, 50)).toBe(200);
    expect(lastReachablePage(0, 20)).toBe(1);
  });

  it("states the server's paging and export limits", () => {
    expect(MAX_REACHABLE).toBe(SERVER_MAX_REACHABLE);
    expect(EXPORT_MAX_ROWS).toBe(SERVER_EXPORT_MAX_ROWS);
  });
});
