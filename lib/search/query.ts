import type { Highlight, UserField } from "./schemas";

/** Below this many characters a query is too short for text or trigram search: equality and prefixes only. */
export const MIN_FUZZY = 3;
/** What ts_headline wraps matches in (control characters: never in a stored message's words). */
export const MARK_START = "\u0002";
export const MARK_STOP = "\u0003";

/** The words of a query as the 'simple' parser sees them, lower-cased (letters and digits, any script). */
export function queryWords(q: string): string[] {
  return (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 16);
}

/**
 * A to_tsquery text: every word, the last as a prefix (the box searches as one types). Words are letters and digits
 * only, so nothing in them is tsquery syntax. Undefined when the query has no word.
 */
export function tsQueryText(q: string): string | undefined {
  const words = queryWords(q);
  if (words.length === 0) return undefined;
  return words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(" & ");
}

/** `%q%` for ILIKE, with LIKE's own characters escaped. */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The first string after `prefix` in code-point order: `[prefix, upper)` is every string starting with it. */
export function prefixUpper(prefix: string): string {
  const cps = Array.from(prefix);
  const last = cps.pop();
  if (last === undefined) return "\u{10FFFF}";
  return cps.join("") + String.fromCodePoint(Math.min(last.codePointAt(0)! + 1, 0x10ffff));
}

/** ts_headline's output (matches between MARK_START and MARK_STOP) as pieces. */
export function splitMarked(text: string): Highlight {
  const out: Highlight = [];
  let match = false;
  for (const piece of text.split(/([\u0002\u0003])/u)) {
    if (piece === MARK_START) match = true;
    else if (piece === MARK_STOP) match = false;
    else if (piece !== "") out.push({ text: piece, match });
  }
  return out;
}

/** `value` with each case-insensitive occurrence of `q` marked. */
export function markContains(value: string, q: string): Highlight {
  const needle = q.toLowerCase();
  const hay = value.toLowerCase();
  // Lower-casing changed the length (some scripts): mark nothing rather than the wrong characters.
  if (needle === "" || hay.length !== value.length) return [{ text: value, match: false }];
  const out: Highlight = [];
  let at = 0;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + needle.length)) {
    if (i > at) out.push({ text: value.slice(at, i), match: false });
    out.push({ text: value.slice(i, i + needle.length), match: true });
    at = i + needle.length;
  }
  if (at < value.length) out.push({ text: value.slice(at), match: false });
  return out;
}

export interface UserFields {
  name: string | null;
  email: string | null;
  phone: string | null;
  userId: string | null;
}

/**
 * The first of a user's fields that matched `q` as the search looks: holding it (case-insensitive), or, for a
 * query shorter than MIN_FUZZY, an email, phone or user ID starting with it.
 */
export function matchedField(u: UserFields, q: string): { field: UserField; value: string } | undefined {
  const needle = q.toLowerCase();
  const short = q.length < MIN_FUZZY;
  const fields: [UserField, string | null][] = [
    ["name", short ? null : u.name],
    ["email", u.email],
    ["phone", u.phone],
    ["user_id", u.userId],
  ];
  for (const [field, value] of fields) {
    if (value === null) continue;
    if (short ? value.toLowerCase().startsWith(needle) : value.toLowerCase().includes(needle))
      return { field, value };
  }
  return undefined;
}
