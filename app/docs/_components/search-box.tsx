"use client";

import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { searchFor, type SearchEntry } from "@/lib/docs/search";

const MAX_HITS = 8;

/** The reference's filter: "/" focuses it, arrows move, Enter opens the active hit (the first by default). */
export function SearchBox({ entries }: { entries: SearchEntry[] }) {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const hits = useMemo(() => searchFor(entries, query).slice(0, MAX_HITS), [entries, query]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      const typing = t?.closest("input, textarea, select, [contenteditable='true']");
      if (e.key === "/" && !typing && !e.metaKey && !e.ctrlKey && !e.altKey) {
        e.preventDefault();
        input.current?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const open = (hit: SearchEntry | undefined) => {
    if (!hit) return;
    setQuery("");
    input.current?.blur();
    router.push(hit.href);
  };

  return (
    <div className="relative w-full max-w-md">
      <input
        ref={input}
        type="search"
        role="combobox"
        aria-label="Search the API reference"
        aria-expanded={hits.length > 0}
        aria-controls={listId}
        aria-activedescendant={hits.length ? `${listId}-${active}` : undefined}
        placeholder="Search endpoints  ( / )"
        className="w-full rounded border border-slate-300 px-3 py-1.5 text-sm"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setActive((a) => Math.min(a + 1, hits.length - 1));
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive((a) => Math.max(a - 1, 0));
          } else if (e.key === "Enter") {
            e.preventDefault();
            open(hits[active] ?? hits[0]);
          } else if (e.key === "Escape") {
            setQuery("");
          }
        }}
      />
      {hits.length > 0 && (
        <ul
          id={listId}
          role="listbox"
          aria-label="Search results"
          className="absolute z-10 mt-1 w-full overflow-hidden rounded border border-slate-200 bg-white shadow-lg"
        >
          {hits.map((h, i) => (
            <li
              key={h.href}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={`cursor-pointer px-3 py-2 text-sm ${i === active ? "bg-blue-50" : ""}`}
              onMouseDown={(e) => {
                e.preventDefault();
                open(h);
              }}
            >
              {h.kind === "resource" ? (
                <span className="font-medium">{h.title}</span>
              ) : (
                <>
                  <span className="mr-2 font-mono text-xs uppercase text-slate-500">{h.method}</span>
                  <span className="font-mono text-xs">{h.path}</span>
                  <span className="block truncate text-slate-600">{h.title}</span>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
