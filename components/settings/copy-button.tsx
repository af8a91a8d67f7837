"use client";

import { Button } from "@/components/ui/button";
import { copyAnnouncement, useCopy } from "./use-copy";

/** Copies `value` to the clipboard and says so (to screen readers too). */
export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const { copied, copy } = useCopy(value);

  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => void copy()}>
        {copied === "yes" ? "Copied" : label}
      </Button>
      <span aria-live="polite" className="sr-only">
        {copyAnnouncement(copied)}
      </span>
    </>
  );
}
