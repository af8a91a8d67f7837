/** Where the composer's `@` being typed is: the text from the `@` to the caret. */
export interface MentionQuery {
  /** Offset of the `@`. */
  start: number;
  /** Offset of the caret (the end of what the chosen mention replaces). */
  end: number;
  query: string;
}

export interface MentionOperator {
  id: string;
  name: string;
  email: string;
}

const MAX_QUERY = 40;

/**
 * The `@…` before the caret, when the `@` starts a word (an email address's `@` does not) and the line goes on
 * from it: names have spaces (`@Ann Lee`), so a space does not end the query; the list does when nothing matches.
 */
export function mentionQueryAt(value: string, caret: number): MentionQuery | null {
  const at = value.lastIndexOf("@", caret - 1);
  if (at < 0) return null;
  const before = at === 0 ? "" : value[at - 1]!;
  if (/[\p{L}\p{N}_@]/u.test(before)) return null;
  const query = value.slice(at + 1, caret);
  if (query.length > MAX_QUERY || /[\n@]/.test(query) || query.startsWith(" ")) return null;
  return { start: at, end: caret, query };
}

/** Operators whose name (any word of it) or email starts with the query, case-insensitively; at most `max`. */
export function matchOperators<T extends MentionOperator>(ops: readonly T[], query: string, max = 8): T[] {
  const q = query.toLowerCase();
  const hit = (op: T) => {
    const name = op.name.toLowerCase();
    return (
      name.startsWith(q) ||
      op.email.toLowerCase().startsWith(q) ||
      (!q.includes(" ") && name.split(/\s+/).some((w) => w.startsWith(q)))
    );
  };
  return ops.filter(hit).slice(0, max);
}

/**
 * The text that mentions `op` as the server reads it (lib/notifications/mentions.ts): `@Name`, or `@email` when
 * another operator has the same name (a name shared would notify both).
 */
export function mentionHandle(op: MentionOperator, ops: readonly MentionOperator[]): string {
  const name = op.name.trim();
  const shared = ops.some((o) => o.id !== op.id && o.name.trim().toLowerCase() === name.toLowerCase());
  return `@${name && !shared ? name : op.email}`;
}
