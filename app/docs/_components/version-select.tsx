"use client";

import { useRouter } from "next/navigation";
import type { VersionLink } from "@/lib/docs/navigation";

/** Switches to the same resource in another version (or that version's overview where it has none). */
export function VersionSelect({ links, current }: { links: VersionLink[]; current: string }) {
  const router = useRouter();
  return (
    <label className="flex items-center gap-2 text-sm text-slate-600">
      API version
      <select
        aria-label="API version"
        className="rounded border border-slate-300 px-2 py-1 text-sm text-slate-900"
        value={current}
        onChange={(e) => {
          const to = links.find((l) => l.slug === e.target.value);
          if (to) router.push(to.href);
        }}
      >
        {links.map((l) => (
          <option key={l.slug} value={l.slug}>
            {l.label}
          </option>
        ))}
      </select>
    </label>
  );
}
