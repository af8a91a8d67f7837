import { z } from "zod";
import type { Key, KeyShape, Keyset, KeysetPage } from "../domain/keyset";
import { validation } from "./errors";
import type { Serialized, v1PageMeta, v2PageMeta } from "../contract/schemas";
import { p } from "../contract/zod";
import { LAST_SECOND } from "../contract/dates";

/**
 * The API versions' paging, translated here once: v1 (`after`, `count`, …) and v2 (`paginate_*`) parameters to
 * the neutral keyset every list service takes (lib/domain/keyset.ts), and its page back to each version's meta.
 */
export const v2PageParams = {
  paginate_position: p
    .json(
      z
        .array(z.union([z.number(), z.string()]), { error: "must be a JSON array" })
        .min(1)
        .max(3),
    )
    .optional(),
  paginate_count: p.int({ min: 1, max: 50 }).optional(),
  paginate_direction: p.oneOf(["after", "before", "around"]).optional(),
  paginate_including: p.bool().optional(),
  paginate_page_order: p.oneOf(["asc", "desc"]).optional(),
};

export const v1PageParams = {
  after: z.union([z.number(), z.string()]).optional(),
  count: p.int({ min: 1, max: 50 }).optional(),
  including: p.bool().optional(),
  page_order: p.oneOf(["asc", "desc"]).optional(),
};

type V2Input = { [K in keyof typeof v2PageParams]?: z.output<(typeof v2PageParams)[K]> };
type V1Input = { [K in keyof typeof v1PageParams]?: z.output<(typeof v1PageParams)[K]> };

function micros(v: number | string): bigint {
  const s = typeof v === "number" ? v.toFixed(6) : v.trim();
  const m = /^(-?)(\d+)(?:\.(\d{0,6})\d*)?$/.exec(s);
  if (!m) throw new Error("not a timestamp");
  const frac = (m[3] ?? "").padEnd(6, "0");
  const abs = BigInt(m[2]!) * 1_000_000n + BigInt(frac);
  return m[1] ? -abs : abs;
}

const MAX_ID = 2n ** 63n - 1n;
// PostgreSQL's timestamps end with the year 9999: a later position can only be a mistake.
const MAX_MICROS = BigInt(LAST_SECOND) * 1_000_000n;

function toKey(shape: KeyShape, raw: (number | string)[], field: string): Key {
  if (raw.length > shape.length) throw validation({ [field]: `must have at most ${shape.length} elements` });
  let key: Key;
  try {
    key = raw.map((v, i) => {
      if (shape[i]!.kind === "ts") return micros(v);
      if (typeof v === "number" ? !Number.isSafeInteger(v) : !/^\d{1,19}$/.test(v)) throw new Error("id");
      return BigInt(v);
    });
  } catch {
    throw validation({ [field]: "is not a position of this list" });
  }
  const inRange = key.every((v, i) => v >= 0n && v <= (shape[i]!.kind === "ts" ? MAX_MICROS : MAX_ID));
  if (!inRange) throw validation({ [field]: "is out of range" });
  return key;
}

/** v2 positions: timestamps as float seconds, IDs as bigints (strings with id_as_string). */
function positionOf(shape: KeyShape, key: Key): (number | bigint)[] {
  return key.map((v, i) => (shape[i]!.kind === "ts" ? Number(v) / 1e6 : v));
}

/** v1 cursors: the whole key as a string (`seconds.micros_id`), so ties at a page border are never skipped. */
function encodeCursor(shape: KeyShape, key: Key): string | bigint {
  if (shape.length === 1 && shape[0]!.kind === "id") return key[0]!;
  return key
    .map((v, i) =>
      shape[i]!.kind === "ts" ? `${v / 1_000_000n}.${String(v % 1_000_000n).padStart(6, "0")}` : String(v),
    )
    .join("_");
}

/** v2: 20 rows before the position (or the newest), newest first, unless the parameters say otherwise. */
export function v2Keyset(input: V2Input, shape: KeyShape): Keyset {
  const from = input.paginate_position
    ? toKey(shape, input.paginate_position, "paginate_position")
    : undefined;
  const direction = input.paginate_direction ?? "before";
  if (direction === "around" && !from) {
    throw validation({ paginate_position: "is required with paginate_direction=around" });
  }
  return {
    from,
    direction,
    limit: input.paginate_count ?? 20,
    including: input.paginate_including ?? false,
    order: input.paginate_page_order ?? "desc",
  };
}

type V2Meta = Serialized<z.output<typeof v2PageMeta>>;
type V1Meta = Serialized<z.output<typeof v1PageMeta>>;

/** A side the keyset read gets its next position, or null at its end; a side it did not read is left out. */
export function v2Meta(shape: KeyShape, keyset: Keyset, page: KeysetPage<unknown>): V2Meta {
  const meta: V2Meta = {};
  const at = (key: Key | undefined) => (key ? positionOf(shape, key) : null);
  if (keyset.direction !== "after") meta.next_before_position = at(page.next.before);
  if (keyset.direction !== "before") meta.next_after_position = at(page.next.after);
  return meta;
}

/**
 * v1 pages one way only: `after` is where the previous page ended in the page order, so newest first (the
 * default) reads the rows before it and `page_order=asc` the rows after it.
 */
export function v1Keyset(input: V1Input, shape: KeyShape): Keyset {
  const desc = (input.page_order ?? "desc") === "desc";
  let from: Key | undefined;
  if (input.after !== undefined && input.after !== "") {
    // A bare number (the old form) names only the first key column.
    const parts = typeof input.after === "number" ? [input.after] : input.after.split("_");
    from = toKey(shape, parts, "after");
  }
  return {
    from,
    direction: desc ? "before" : "after",
    limit: input.count ?? 20,
    including: input.including ?? false,
    order: desc ? "desc" : "asc",
  };
}

export function v1Meta(shape: KeyShape, keyset: Keyset, page: KeysetPage<unknown>): V1Meta {
  const next = keyset.direction === "before" ? page.next.before : page.next.after;
  return { next_after: next ? encodeCursor(shape, next) : null };
}
