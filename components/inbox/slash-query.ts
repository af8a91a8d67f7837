/** The `/word` being typed at the caret: where it starts (the slash) and what follows it. */
export interface SlashQuery {
  start: number;
  end: number;
  query: string;
}

// A slash at the start of a word: after the start of the text or whitespace, so URLs and "and/or" do not open it.
const AT_CARET = /(^|\s)\/([^\s/]{0,32})$/;

export function slashQueryAt(text: string, caret: number): SlashQuery | null {
  const m = AT_CARET.exec(text.slice(0, caret));
  if (!m) return null;
  const query = m[2] ?? "";
  return { start: caret - query.length - 1, end: caret, query };
}

/** Shortcut prefixes first, then shortcuts and titles that contain the query; at most `limit`. */
export function matchSavedReplies<T extends { shortcut: string; title: string }>(
  all: readonly T[],
  query: string,
  limit = 8,
): T[] {
  const q = query.toLowerCase();
  const rank = (r: T) =>
    r.shortcut.startsWith(q) ? 0 : r.shortcut.includes(q) ? 1 : r.title.toLowerCase().includes(q) ? 2 : 3;
  return all
    .map((r) => ({ r, k: rank(r) }))
    .filter((x) => x.k < 3)
    .sort((a, b) => a.k - b.k)
    .slice(0, limit)
    .map((x) => x.r);
}
