import { p } from "../contract/zod";

/**
 * Characters that do not show, or show as something else: controls, format characters (zero-width spaces and
 * joiners, bidi marks, the BOM, tag characters), private use, line and paragraph separators, the fillers and blanks
 * that render empty (Hangul fillers, braille blank, combining grapheme joiner, variation selectors), and every
 * space but the ordinary one. "U1" followed by one of them would look like "U1" in every list and log.
 */
const HIDDEN =
  /[\p{Cc}\p{Cf}\p{Co}\p{Zl}\p{Zp}\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u2800\u3164\uFE00-\uFE0F\uFFA0\u{E0100}-\u{E01EF}]|(?! )\s/u;

export const MAX_USER_ID = 255;

/** Why `id` (already trimmed) cannot be a user ID, or undefined when it can. */
export function userIdProblem(id: string): string | undefined {
  if (id === "") return "must not be empty";
  if (id.length > MAX_USER_ID) return `must be at most ${MAX_USER_ID} characters`;
  if (HIDDEN.test(id)) return "must not contain control, invisible or non-standard space characters";
  return undefined;
}

/**
 * A site's user ID as every lookup and write sees it: trimmed, and refused when it holds a character that does not
 * show, so that a look-alike ("U1 ", "U1\u200b") can neither be claimed nor name another user than "U1".
 */
export const userIdParam = p
  .str({ trim: true })
  .superRefine((id, ctx) => {
    const problem = userIdProblem(id);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .meta({ type: "string", minLength: 1, maxLength: MAX_USER_ID });
