"use client";

import { useRouter } from "next/navigation";
import { useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { Spinner } from "@/components/ui/spinner";
import { cleanUserText } from "@/components/ui/user-text";
import { cn } from "@/components/ui/cn";
import { Dialog, DialogTitle } from "@/components/ui/dialog";
import type { Highlight, SearchState } from "@/lib/search/schemas";
import { useAdmins } from "@/lib/client/use-admins";
import { useDebounced } from "@/lib/client/use-debounced";
import { useSearch } from "@/lib/client/use-search";
import { searchRows, type SearchRow } from "./search-results";

const DAY = 86_400;
const DATES = [
  { value: "", label: "Any time" },
  { value: "1", label: "Last 24 hours" },
  { value: "7", label: "Last 7 days" },
  { value: "30", label: "Last 30 days" },
] as const;

function Marked({ pieces }: { pieces: Highlight }) {
  return (
    <bdi>
      {pieces.map((p, i) =>
        p.match ? (
          <mark key={i} className="rounded-sm bg-amber-200 px-0.5 text-slate-900">
            {cleanUserText(p.text)}
          </mark>
        ) : (
          <span key={i}>{cleanUserText(p.text)}</span>
        ),
      )}
    </bdi>
  );
}

const selectClass =
  "h-8 rounded-md bg-white px-2 text-xs text-slate-700 ring-1 ring-slate-300 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none";

/** The search dialog (Cmd/Ctrl+K): type, arrows to move, Enter to open the thread or the lead's card. */
export function SearchDialog({ appId, onClose }: { appId: string; onClose: () => void }) {
  const router = useRouter();
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [q, setQ] = useState("");
  const [state, setState] = useState<SearchState>("all");
  const [assignee, setAssignee] = useState("");
  const [days, setDays] = useState("");
  const [active, setActive] = useState(0);
  const admins = useAdmins(appId);
  const settledQ = useDebounced(q, 150);
  // The window's start is fixed when the filter is chosen, so the query key does not change every render.
  const from = useMemo(() => (days ? Math.floor(Date.now() / 1000) - Number(days) * DAY : undefined), [days]);
  const search = useSearch(appId, {
    q: settledQ,
    kind: "all",
    state: state === "all" ? undefined : state,
    assignee: assignee || undefined,
    from,
  });
  const rows = useMemo(() => (settledQ.trim() ? searchRows(search.data) : []), [search.data, settledQ]);
  const current = Math.min(active, Math.max(rows.length - 1, 0));

  const open = (row: SearchRow | undefined) => {
    if (!row) return;
    onClose();
    router.push(row.href);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setActive(Math.min(current + 1, rows.length - 1));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive(Math.max(current - 1, 0));
    } else if (e.key === "Enter" && e.target === input.current) {
      e.preventDefault();
      open(rows[current]);
    }
  };

  return (
    <Dialog
      open
      onClose={onClose}
      initialFocus={input}
      className="mx-auto mt-[10vh] w-[calc(100%-2rem)] max-w-xl overflow-hidden rounded-xl bg-white shadow-xl"
      data-testid="search-dialog"
    >
      <DialogTitle className="sr-only">Search</DialogTitle>
      <div className="flex max-h-[75vh] flex-col" onKeyDown={onKeyDown}>
        <div className="border-b border-slate-200 p-3">
          <input
            ref={input}
            type="search"
            role="combobox"
            aria-expanded={rows.length > 0}
            aria-controls={listId}
            aria-activedescendant={rows[current] ? `${listId}-${rows[current].key}` : undefined}
            aria-label="Search messages, notes, visitors and leads"
            placeholder="Search messages, notes, names, emails, phones, user IDs…"
            maxLength={200}
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              setActive(0);
            }}
            className="h-10 w-full rounded-lg px-3 text-sm text-slate-900 ring-1 ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none"
          />
          <div className="mt-2 flex flex-wrap gap-2">
            <select
              aria-label="State"
              className={selectClass}
              value={state}
              onChange={(e) => setState(e.target.value as SearchState)}
            >
              <option value="all">Open and closed</option>
              <option value="open">Open</option>
              <option value="closed">Closed</option>
            </select>
            <select
              aria-label="Assignee"
              className={selectClass}
              value={assignee}
              onChange={(e) => setAssignee(e.target.value)}
            >
              <option value="">Anyone</option>
              <option value="0">Unassigned</option>
              {(admins.data ?? []).map((a) => (
                <option key={String(a.id)} value={String(a.id)}>
                  {cleanUserText(a.name)}
                </option>
              ))}
            </select>
            <select
              aria-label="Date"
              className={selectClass}
              value={days}
              onChange={(e) => setDays(e.target.value)}
            >
              {DATES.map((d) => (
                <option key={d.value} value={d.value}>
                  {d.label}
                </option>
              ))}
            </select>
            {search.isFetching && <Spinner className="size-4 self-center text-slate-400" label="Searching" />}
          </div>
        </div>
        {search.isError && (
          <p role="alert" className="px-4 py-3 text-sm text-red-700">
            Search failed: {search.error.message}
          </p>
        )}
        <ul id={listId} role="listbox" aria-label="Results" className="min-h-0 flex-1 overflow-y-auto py-1">
          {rows.map((row, i) => (
            <li key={row.key}>
              {(i === 0 || rows[i - 1]?.section !== row.section) && (
                <p className="px-4 pt-2 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">
                  {row.section}
                </p>
              )}
              <div
                id={`${listId}-${row.key}`}
                role="option"
                aria-selected={i === current}
                onMouseEnter={() => setActive(i)}
                onClick={() => open(row)}
                className={cn(
                  "cursor-pointer px-4 py-2",
                  i === current ? "bg-brand-50" : "hover:bg-slate-50",
                )}
                data-testid="search-result"
              >
                <p className="truncate text-sm font-medium text-slate-900">
                  {cleanUserText(row.title)}{" "}
                  <span className="text-xs font-normal text-slate-500">{row.detail}</span>
                </p>
                <p className="line-clamp-2 text-sm text-slate-600">
                  <Marked pieces={row.highlight} />
                </p>
              </div>
            </li>
          ))}
        </ul>
        {settledQ.trim() && search.isSuccess && rows.length === 0 && (
          <p className="px-4 py-3 text-sm text-slate-600">
            Nothing found for “{cleanUserText(settledQ.trim())}”.
          </p>
        )}
        <p className="border-t border-slate-200 px-4 py-2 text-xs text-slate-500">
          ↑ ↓ to move · Enter to open · Esc to close
        </p>
      </div>
    </Dialog>
  );
}
