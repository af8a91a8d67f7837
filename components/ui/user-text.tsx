import type { ReactNode } from "react";

/**
 * Bidirectional embeddings, overrides, isolates and marks (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C).
 * In a name or a file name they only serve to spoof ("invoice\u202Efdp.exe" shown as "invoiceexe.pdf"); without
 * them the text shows in the order it was typed, and <bdi> still lays out right-to-left text correctly.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/** Text a visitor, an integration or another operator supplied, for places that take only a string (attributes, options). */
export function cleanUserText(text: string): string {
  return text.replace(BIDI_CONTROLS, "");
}

/**
 * Text others supplied, shown inline: isolated from what surrounds it (its direction cannot reorder the label or
 * punctuation next to it) and stripped of bidi controls.
 */
export function UserText({ children, className }: { children: string; className?: string }): ReactNode {
  return <bdi className={className}>{cleanUserText(children)}</bdi>;
}
