export interface Mentionable {
  id: bigint;
  name: string;
  email: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The operators a note names as `@Name` or `@email` (case-insensitive, whole names: `@Ann` is not `@Anna`).
 * Longer names are matched first and taken out of the text, so `@Ann Lee` does not also mention an `Ann`.
 */
export function findMentions(body: string, operators: readonly Mentionable[]): bigint[] {
  if (!body.includes("@")) return [];
  let text = body;
  const found = new Set<bigint>();
  const handles = operators
    .flatMap((op) => [op.email, op.name].filter((h) => h.trim()).map((h) => ({ id: op.id, h: h.trim() })))
    .sort((a, b) => b.h.length - a.h.length);
  for (const { id, h } of handles) {
    const re = new RegExp(`(^|[^\\p{L}\\p{N}_@])@${escape(h)}(?![\\p{L}\\p{N}_])`, "giu");
    if (!re.test(text)) continue;
    found.add(id);
    text = text.replace(re, (_m, before: string) => `${before} `);
  }
  return [...found];
}

/**
 * The `@handles` of a note that name nobody: what is left after every operator's mention is taken out, as
 * `findMentions` takes them. The panel warns of these before a note is sent (a typo would notify nobody).
 * An email address in the text is no mention (its `@` follows a letter).
 */
export function unmatchedMentions(
  body: string,
  operators: readonly Pick<Mentionable, "name" | "email">[],
): string[] {
  if (!body.includes("@")) return [];
  let text = body;
  const handles = operators
    .flatMap((op) => [op.email, op.name].map((h) => h.trim()).filter(Boolean))
    .sort((a, b) => b.length - a.length);
  for (const h of handles)
    text = text.replace(
      new RegExp(`(^|[^\\p{L}\\p{N}_@])@${escape(h)}(?![\\p{L}\\p{N}_])`, "giu"),
      (_m, before: string) => `${before} `,
    );
  const left = text.matchAll(/(?:^|[^\p{L}\p{N}_@])@([\p{L}\p{N}_][^\s@,;:!?)]*)/gu);
  return [...new Set([...left].map((m) => `@${m[1]!.replace(/[.'"]+$/, "")}`))];
}
