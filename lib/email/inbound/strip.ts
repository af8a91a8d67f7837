import EmailReplyParser from "email-reply-parser";

const FORWARD_MARKER =
  /^\s*(-{2,}\s*(forwarded message|weitergeleitete nachricht|message transféré|mensaje reenviado)\s*-*|begin forwarded message:|anfang der weitergeleiteten nachricht:|début du message réexpédié\s?:)\s*$/i;
const FORWARD_SUBJECT = /^\s*(fwd?|wg|tr|rv|enc|doorst)\s*:/i;
const ORIGINAL_MESSAGE =
  /^\s*-{2,}\s*(original message|ursprüngliche nachricht|message d'origine|mensaje original|messaggio originale|oorspronkelijk bericht)\s*-{2,}\s*$/i;
/** Outlook's separator above the header block, or the rule html-to-text makes of its <hr>. */
const RULE = /^\s*(_{10,}|-{10,})\s*$/;
const HEADER_FROM = /^\s*\*?(from|de|von|van|da|från|fra|od|от)\*?\s?:\s*\S/i;
const HEADER_DATE =
  /^\s*\*?(sent|date|gesendet|datum|envoyé|enviado|fecha|inviato|data|verzonden|skickat|sendt)\*?\s?:/i;
const HEADER_OTHER =
  /^\s*\*?(to|subject|cc|an|betreff|à|objet|para|asunto|a|oggetto|aan|onderwerp|till|ämne|til|emne)\*?\s?:/i;
/** "On … wrote:" and its translations, which Gmail wraps over two or three lines when the name is long. */
const ATTRIBUTION = [
  /^\s*on\s.*\bwrote\s?:\s*$/i,
  /^\s*am\s.*\bschrieb\b.*:\s*$/i,
  /^\s*le\s.*\ba écrit\s?:\s*$/i,
  /^\s*el\s.*\bescribió\s?:\s*$/i,
  /^\s*il\s.*\bha scritto\s?:\s*$/i,
  /^\s*op\s.*\bschreef\b.*:\s*$/i,
  /^\s*em\s.*\bescreveu\s?:\s*$/i,
  /^\s*den\s.*\bskrev\b.*:\s*$/i,
];
/** Any other language: a line naming a sender or a time and ending in ":", trusted only right above ">" lines. */
const LOOSE_ATTRIBUTION = /(@|\d{1,2}:\d{2}).*:\s*$/;

/** Longer lines are never quote headers or signatures; see replyParser. */
const MAX_LINE = 1000;
/** Past this, email-reply-parser is not used at all; see replyParser. */
const MAX_PARSED = 100_000;

const blank = (line: string | undefined) => line === undefined || line.trim() === "";
const quoted = (line: string) => /^\s*>/.test(line);

function nextFilled(lines: string[], from: number): number {
  let i = from;
  while (i < lines.length && blank(lines[i])) i++;
  return i;
}

/** An Outlook-style header block starting at i: From, then Sent/Date and To/Subject within the next lines. */
function headerBlockAt(lines: string[], i: number): boolean {
  if (!HEADER_FROM.test(lines[i] ?? "")) return false;
  const next = lines.slice(i + 1, i + 6).filter((l) => !blank(l));
  return next.some((l) => HEADER_DATE.test(l)) && next.some((l) => HEADER_OTHER.test(l));
}

/** Where earlier messages start unquoted (Outlook, "-----Original Message-----"): nothing below is new. */
function historyAt(lines: string[], i: number): boolean {
  const line = lines[i] ?? "";
  if (ORIGINAL_MESSAGE.test(line) || headerBlockAt(lines, i)) return true;
  return RULE.test(line) && headerBlockAt(lines, nextFilled(lines, i + 1));
}

/** How many lines (1 to 3) an attribution starting at i spans, 0 if there is none. */
function attributionAt(lines: string[], i: number): number {
  for (let span = 1; span <= 3 && !blank(lines[i + span - 1]); span++) {
    const joined = lines.slice(i, i + span).join(" ");
    if (joined.length > 400) return 0;
    if (ATTRIBUTION.some((re) => re.test(joined))) return span;
    // One line only: joined to the line above it, any sentence ending in ":" would pass.
    if (span === 1 && LOOSE_ATTRIBUTION.test(joined) && quoted(lines[nextFilled(lines, i + 1)] ?? ""))
      return 1;
  }
  return 0;
}

/**
 * email-reply-parser with its input made safe: its patterns backtrack on long lines (a 20 KB line of " on at" takes
 * half a minute) and on runs of blank lines (40,000 take 15 s). Blank runs are collapsed, which changes nothing in
 * the output, and long lines are swapped for placeholders while it runs. It also joins the lines between a
 * line starting "Op " and a later "schreef" into one, so a big enough input still goes quadratic (1 MB: 17 s):
 * past MAX_PARSED only ">" lines and what follows a "-- " line are removed.
 */
function replyParser(lines: string[]): string {
  const long: string[] = [];
  const safe = lines
    .filter((line, i) => !(blank(line) && blank(lines[i - 1])))
    .map((line) => {
      if (line.length <= MAX_LINE) return line;
      long.push(line);
      return `${line.startsWith(">") ? ">" : ""}\uE000${long.length - 1}\uE000`;
    });
  const text = safe.join("\n");
  let reply: string;
  if (text.length <= MAX_PARSED) reply = new EmailReplyParser().parseReply(text);
  else {
    const signature = safe.findIndex((line) => /^--\s*$/.test(line));
    reply = (signature < 0 ? safe : safe.slice(0, signature))
      .filter((line) => !line.startsWith(">"))
      .join("\n");
  }
  return reply.replace(/>?\uE000(\d+)\uE000/g, (_, n: string) => long[Number(n)] ?? "");
}

function tidy(text: string): string {
  return text
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * What the sender wrote in this message: quoted history and signatures removed, a forwarded message kept.
 * email-reply-parser does the ">" lines and the signatures; the history that is not quoted line by line
 * (Outlook, wrapped attributions) is cut here first, since everything below it is old.
 */
export function newText(body: string, subject: string): string {
  const lines = body
    .replace(/\r\n?/g, "\n")
    .replace(/[\uFEFF\u200B\uE000]/g, "")
    // What mailparser's HTML conversion adds: "[cid:…]" for inline images, "a@b [a@b]" for a mailto: link.
    .replace(/ ?\[cid:[^\]\s]*\]/g, "")
    // (bounded: an unbounded token would make a long unbroken string quadratic)
    .replace(/([^\s<>()[\]]{1,200}) \[(?:mailto:)?\1\]/g, "$1")
    .split("\n")
    .map((line) => line.trimEnd());
  // An Outlook forward looks exactly like an Outlook reply: only the subject tells them apart.
  const forwarding = FORWARD_SUBJECT.test(subject);
  // Non-blank and quoted lines from i to the end, counted once: a check per attribution would be quadratic.
  const filledFrom = new Array<number>(lines.length + 1).fill(0);
  const quotedFrom = new Array<number>(lines.length + 1).fill(0);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? "";
    filledFrom[i] = (filledFrom[i + 1] ?? 0) + (blank(line) ? 0 : 1);
    quotedFrom[i] = (quotedFrom[i + 1] ?? 0) + (quoted(line) ? 1 : 0);
  }
  const kept: string[] = [];
  let forwarded: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (FORWARD_MARKER.test(line) || (forwarding && historyAt(lines, i))) {
      forwarded = lines.slice(i);
      break;
    }
    if (historyAt(lines, i)) break;
    const span = attributionAt(lines, i);
    if (span > 0) {
      const [filled, quotes] = [filledFrom[i + span] ?? 0, quotedFrom[i + span] ?? 0];
      // Below an attribution is either only history (quoted, or pasted unquoted by an HTML conversion) or,
      // for inline answers and bottom posting, new lines between the quoted ones, which must stay.
      if (quotes === filled || quotes === 0) break;
      i += span - 1;
      continue;
    }
    kept.push(line);
  }
  return tidy(`${replyParser(kept)}\n\n${forwarded.join("\n")}`);
}
