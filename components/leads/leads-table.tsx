"use client";

import Link from "next/link";
import { cn } from "@/components/ui/cn";
import type { CatalogProp, Lead } from "@/lib/client/leads-types";
import { Spinner } from "@/components/ui/spinner";
import { UserText } from "@/components/ui/user-text";
import { formatValue, leadName, propLabel, PRESENCE_LABEL, presenceClass } from "./format";

interface Column {
  key: string;
  label: string;
  /** The prop the column sorts by; none: not sortable. */
  sort?: string;
  /** Its share of the table's width while only the base columns show (they fit a 1280 px screen then). */
  width?: string;
  /** The order of a first click: A→Z for text, newest or largest first for dates and numbers. */
  first?: "asc" | "desc";
  cell: (l: Lead) => React.ReactNode;
}

const BASE: Column[] = [
  {
    key: "name",
    width: "19%",
    label: "Name",
    sort: "$name",
    first: "asc",
    cell: (l) => (
      <span className="flex items-center gap-2">
        <span
          className={cn("size-2 shrink-0 rounded-full", presenceClass(l.presence))}
          title={PRESENCE_LABEL[l.presence] ?? l.presence}
          aria-hidden="true"
        />
        <span className="sr-only">{PRESENCE_LABEL[l.presence] ?? l.presence}: </span>
        <Link
          prefetch={false}
          href={`/leads/users/${l.id}`}
          className="font-medium text-brand-700 hover:underline focus-visible:rounded focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <UserText>{leadName(l.props, l.id)}</UserText>
        </Link>
      </span>
    ),
  },
  {
    key: "email",
    width: "21%",
    label: "Email",
    sort: "$email",
    first: "asc",
    cell: (l) => <UserText>{formatValue(l.props.$email)}</UserText>,
  },
  {
    key: "phone",
    width: "12%",
    label: "Phone",
    sort: "$phone",
    first: "asc",
    cell: (l) => <UserText>{formatValue(l.props.$phone)}</UserText>,
  },
  {
    key: "last_seen",
    width: "14%",
    label: "Last seen",
    sort: "$last_seen",
    cell: (l) => formatValue(l.props.$last_seen),
  },
  {
    key: "sessions",
    width: "8%",
    label: "Sessions",
    sort: "$sessions",
    cell: (l) => formatValue(l.props.$sessions ?? 0),
  },
  {
    key: "place",
    width: "12%",
    label: "City, country",
    sort: "$city",
    first: "asc",
    cell: (l) => <UserText>{[l.props.$city, l.props.$country].filter(Boolean).join(", ") || "—"}</UserText>,
  },
  {
    key: "tags",
    width: "14%",
    label: "Tags",
    cell: (l) =>
      l.tags?.length ? (
        <span className="flex flex-wrap gap-1">
          {l.tags.map((t) => (
            <span key={t} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
              <UserText>{t}</UserText>
            </span>
          ))}
        </span>
      ) : (
        "—"
      ),
  },
];

export function LeadsTable({
  leads,
  extra,
  catalog,
  sort,
  order,
  onSort,
  busy,
}: {
  leads: Lead[];
  extra: string[];
  catalog: CatalogProp[];
  sort: string;
  order: "asc" | "desc";
  onSort: (prop: string, first: "asc" | "desc") => void;
  busy: boolean;
}) {
  const columns: Column[] = [
    ...BASE,
    ...extra.map((name): Column => {
      const prop = catalog.find((p) => p.name === name);
      return {
        key: `x:${name}`,
        label: propLabel(name, prop?.label),
        sort: name,
        first: prop && ["integer", "float", "datetime"].includes(prop.type) ? "desc" : "asc",
        cell: (l: Lead) => <UserText>{formatValue(l.props[name])}</UserText>,
      };
    }),
  ];
  // Only the base columns: a fixed layout that truncates, so no column hides behind a horizontal scrollbar.
  const fits = extra.length === 0;
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table
        className={cn("text-left text-sm", fits ? "w-full table-fixed" : "min-w-full")}
        aria-busy={busy || undefined}
        aria-label="Leads"
      >
        {fits && (
          <colgroup>
            {columns.map((c) => (
              <col key={c.key} style={{ width: c.width }} />
            ))}
          </colgroup>
        )}
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold text-slate-600 uppercase">
          <tr>
            {columns.map((c) => {
              const active = c.sort === sort;
              return (
                <th
                  key={c.key}
                  scope="col"
                  className="truncate px-3 py-2 whitespace-nowrap"
                  aria-sort={
                    active ? (order === "asc" ? "ascending" : "descending") : c.sort ? "none" : undefined
                  }
                >
                  {c.sort ? (
                    <button
                      type="button"
                      onClick={() => onSort(c.sort!, c.first ?? "desc")}
                      className="inline-flex items-center gap-1 uppercase hover:text-slate-900 focus-visible:rounded focus-visible:outline-2 focus-visible:outline-brand-600"
                    >
                      {c.label}
                      <span aria-hidden="true" className={active ? "text-slate-900" : "text-slate-300"}>
                        {active && order === "asc" ? "▲" : "▼"}
                      </span>
                      {active && busy && <Spinner className="size-3" label="Sorting" />}
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className={cn("divide-y divide-slate-100", busy && "opacity-60")}>
          {leads.map((l) => (
            <tr key={String(l.id)} data-lead-id={String(l.id)} className="hover:bg-slate-50">
              {columns.map((c) => (
                <td key={c.key} className="max-w-64 truncate px-3 py-2 text-slate-800">
                  {c.cell(l)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
