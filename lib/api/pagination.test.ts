import { describe, expect, it } from "vitest";
import type { KeyShape, KeysetPage } from "../domain/keyset";
import { v1Keyset, v1Meta, v2Keyset, v2Meta } from "./pagination";

const CONV: KeyShape = [{ kind: "ts" }, { kind: "id" }];
const PARTS: KeyShape = [{ kind: "id" }];
// 2026-03-01 10:00:00.123456 UTC as microseconds, and a conversation ID.
const T = 1772359200123456n;
const page = (next: KeysetPage<unknown>["next"]): KeysetPage<unknown> => ({ items: [], next });

describe("v2 paging → keyset → meta", () => {
  it("defaults to 20 rows before, excluding the position, newest first", () => {
    expect(v2Keyset({}, CONV)).toEqual({
      from: undefined,
      direction: "before",
      limit: 20,
      including: false,
      order: "desc",
    });
  });

  it("keeps each direction, including and page order as given", () => {
    for (const direction of ["before", "after", "around"] as const) {
      for (const including of [false, true]) {
        for (const order of ["asc", "desc"] as const) {
          const k = v2Keyset(
            {
              paginate_position: ["1772359200.123456", 42],
              paginate_count: 7,
              paginate_direction: direction,
              paginate_including: including,
              paginate_page_order: order,
            },
            CONV,
          );
          expect(k).toEqual({ from: [T, 42n], direction, limit: 7, including, order });
        }
      }
    }
  });

  it("reads float seconds exactly, and a key prefix", () => {
    expect(v2Keyset({ paginate_position: [1772359200.123456] }, CONV).from).toEqual([T]);
  });

  it("refuses around without a position, and positions that are not of this list", () => {
    expect(() => v2Keyset({ paginate_direction: "around" }, CONV)).toThrow(
      expect.objectContaining({
        errorName: "ValidationError",
        fields: { paginate_position: "is required with paginate_direction=around" },
      }),
    );
    expect(() => v2Keyset({ paginate_position: [1, 2] }, PARTS)).toThrow(
      expect.objectContaining({ fields: { paginate_position: "must have at most 1 elements" } }),
    );
    expect(() => v2Keyset({ paginate_position: ["x"] }, PARTS)).toThrow(
      expect.objectContaining({ fields: { paginate_position: "is not a position of this list" } }),
    );
    expect(() => v2Keyset({ paginate_position: [-1] }, PARTS)).toThrow(
      expect.objectContaining({ fields: { paginate_position: "is out of range" } }),
    );
  });

  it("gives each side read its next position or null, and leaves out a side not read", () => {
    const more = page({ before: [T, 5n], after: [T, 9n] });
    const none = page({});
    const before = v2Keyset({ paginate_direction: "before" }, CONV);
    const after = v2Keyset({ paginate_direction: "after" }, CONV);
    const around = v2Keyset({ paginate_direction: "around", paginate_position: [1] }, CONV);
    expect(v2Meta(CONV, before, more)).toEqual({ next_before_position: [1772359200.123456, 5n] });
    expect(v2Meta(CONV, before, none)).toEqual({ next_before_position: null });
    expect(v2Meta(CONV, after, more)).toEqual({ next_after_position: [1772359200.123456, 9n] });
    expect(v2Meta(CONV, after, none)).toEqual({ next_after_position: null });
    expect(v2Meta(CONV, around, more)).toEqual({
      next_before_position: [1772359200.123456, 5n],
      next_after_position: [1772359200.123456, 9n],
    });
    expect(v2Meta(PARTS, around, page({ after: [9n] }))).toEqual({
      next_before_position: null,
      next_after_position: [9n],
    });
  });
});

describe("v1 paging → keyset → meta", () => {
  it("newest first (the default) reads before the cursor, excluding it", () => {
    expect(v1Keyset({}, CONV)).toEqual({
      from: undefined,
      direction: "before",
      limit: 20,
      including: false,
      order: "desc",
    });
    expect(v1Keyset({ after: "1772359200.123456_42", count: 5, including: true }, CONV)).toEqual({
      from: [T, 42n],
      direction: "before",
      limit: 5,
      including: true,
      order: "desc",
    });
  });

  it("page_order=asc reads after the cursor", () => {
    for (const including of [false, true]) {
      expect(v1Keyset({ after: 42, page_order: "asc", including }, PARTS)).toEqual({
        from: [42n],
        direction: "after",
        limit: 20,
        including,
        order: "asc",
      });
    }
  });

  it("takes a bare number as the first key column, and an empty cursor as none", () => {
    expect(v1Keyset({ after: 1772359200.123456 }, CONV).from).toEqual([T]);
    expect(v1Keyset({ after: "" }, CONV).from).toBeUndefined();
    expect(() => v1Keyset({ after: "1_2_3" }, CONV)).toThrow(
      expect.objectContaining({ fields: { after: "must have at most 2 elements" } }),
    );
  });

  it("writes the next cursor from the side read: the whole key, or a bare ID for ID-keyed lists", () => {
    const both = page({ before: [T, 5n], after: [T, 9n] });
    expect(v1Meta(CONV, v1Keyset({}, CONV), both)).toEqual({ next_after: "1772359200.123456_5" });
    expect(v1Meta(CONV, v1Keyset({ page_order: "asc" }, CONV), both)).toEqual({
      next_after: "1772359200.123456_9",
    });
    expect(v1Meta(PARTS, v1Keyset({}, PARTS), page({ before: [5n] }))).toEqual({ next_after: 5n });
    expect(v1Meta(PARTS, v1Keyset({}, PARTS), page({ after: [9n] }))).toEqual({ next_after: null });
  });
});
