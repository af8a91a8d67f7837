"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";

/** Copies `value` to the clipboard and says so (to screen readers too). */
export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
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
      setCopied("failed");
    }
  };

  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => void copy()}>
        {copied === "yes" ? "Copied" : label}
      </Button>
      <span aria-live="polite" className="sr-only">
        {copied === "yes"
          ? "Copied to the clipboard"
          : copied === "failed"
            ? "Select and copy it by hand"
            : ""}
      </span>
    </>
  );
}
