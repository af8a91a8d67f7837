"use client";

import { useEffect, useState } from "react";

export type CopyState = "yes" | "failed" | null;

/**
 * Copies a value to the clipboard and remembers how that went for a few seconds; `onFail` lets the caller offer
 * the value for copying by hand (a browser may refuse the clipboard).
 */
export function useCopy(
  value: string,
  onFail?: () => void,
): { copied: CopyState; copy: () => Promise<void> } {
  const [copied, setCopied] = useState<CopyState>(null);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(null), 2500);
    return () => clearTimeout(t);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      onFail?.();
      setCopied("failed");
    }
  };
  return { copied, copy };
}

/** What a screen reader is told after a copy. */
export function copyAnnouncement(copied: CopyState): string {
  return copied === "yes"
    ? "Copied to the clipboard"
    : copied === "failed"
      ? "Select and copy it by hand"
      : "";
}
