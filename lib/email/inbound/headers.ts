import type { HeaderLines } from "mailparser";

const unfold = (value: string) => value.replace(/\r?\n[ \t]+/g, " ").trim();

/**
 * The values of one header, in order, unfolded. Read from the raw lines because mailparser's header map merges
 * the List-* headers into one entry and keeps only the first occurrence of some headers.
 */
export function headerValues(lines: HeaderLines, key: string): string[] {
  return lines.filter((l) => l.key === key).map((l) => unfold(l.line.slice(l.line.indexOf(":") + 1)));
}

/**
 * The "<id>" tokens of Message-ID-like headers, deduplicated, in order. Some clients drop the angle brackets or
 * separate References with commas, so bare tokens with an "@" count when no bracketed id is present.
 */
export function messageIds(values: string[]): string[] {
  const ids: string[] = [];
  for (const value of values) {
    const bracketed = [...value.matchAll(/<([^<>]*)>/g)].map((m) => (m[1] ?? "").replace(/\s+/g, ""));
    const found = bracketed.length > 0 ? bracketed : value.split(/[\s,]+/).filter((t) => t.includes("@"));
    for (const id of found) {
      const normalized = `<${id}>`;
      if (id && !ids.includes(normalized)) ids.push(normalized);
    }
  }
  return ids;
}

/**
 * Blocks of "Name: value" fields separated by blank lines, continuation lines unfolded, names lowercased, the
 * first occurrence of a name kept. That is the shape of a message/delivery-status body (one block per message,
 * then one per recipient) and of a header section (its first block).
 */
export function fieldBlocks(text: string): Map<string, string>[] {
  const blocks: Map<string, string>[] = [];
  for (const chunk of text.replace(/\r\n?/g, "\n").split(/\n[ \t]*\n/)) {
    const fields = new Map<string, string>();
    for (const line of unfold(chunk).split("\n")) {
      const m = /^([!-9;-~]+)[ \t]*:(.*)$/.exec(line);
      if (m?.[1] && !fields.has(m[1].toLowerCase())) fields.set(m[1].toLowerCase(), (m[2] ?? "").trim());
    }
    if (fields.size > 0) blocks.push(fields);
  }
  return blocks;
}
