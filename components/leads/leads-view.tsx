"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { EmptyState, PageHeader } from "@/components/panel/page-header";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { formatCount } from "@/lib/client/format";
import { cleanFilter, EXPORT_MAX_ROWS, isGroup, readQuery, writeQuery } from "@/lib/client/lead-filters";
import type { FilterGroup } from "@/lib/leads/filter-grammar";
import { appPath, type LeadsQuery, type Segment } from "@/lib/client/leads-types";
import { useCurrentApp } from "@/lib/client/use-current-app";
import { rememberLeadsList } from "@/lib/client/leads-return";
import { useLeadColumns } from "@/lib/client/use-lead-columns";
import { useLeads } from "@/lib/client/use-leads";
import { useLeadsLive } from "@/lib/client/use-leads-live";
import { usePropCatalog } from "@/lib/client/use-prop-catalog";
import { useSegments } from "@/lib/client/use-segments";
import { ColumnPicker } from "./column-picker";
import { FilterBuilder } from "./filter-builder";
import { ImportPanel } from "./import-panel";
import { LeadsTable } from "./leads-table";
import { Pager } from "./pager";
import { SegmentsPanel } from "./segments-panel";

const APPLY_AFTER_MS = 400;
const EXPORT_CAP_NOTE = "export-cap-note";
const headerLink =
  "inline-flex h-8 items-center rounded-md bg-white px-2.5 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";

export function LeadsView() {
  const { app } = useCurrentApp();
  if (!app) return <EmptyState title="No app">You are not a member of any app yet.</EmptyState>;
  return <LeadsForApp appId={String(app.id)} />;
}

function LeadsForApp({ appId }: { appId: string }) {
  const pathname = usePathname();
  const sp = useSearchParams();
  const q = useMemo(() => readQuery(new URLSearchParams(sp.toString())), [sp]);
  const segmentId = sp.get("segment");
  const urlFilter = JSON.stringify(cleanFilter(q.filters));

  // The builder edits a draft (incomplete conditions included); complete ones reach the URL after a pause.
  const [draft, setDraft] = useState<FilterGroup>(q.filters);
  const lastPushed = useRef(urlFilter);
  useEffect(() => {
    if (urlFilter !== lastPushed.current) {
      lastPushed.current = urlFilter;
      setDraft(JSON.parse(urlFilter) as FilterGroup);
    }
  }, [urlFilter]);

  // The view of the latest click, ahead of the URL: a second click before the first has rendered builds on it.
  const latest = useRef({ q, segment: segmentId });
  useEffect(() => {
    latest.current = { q, segment: segmentId };
  }, [q, segmentId]);
  const go = (next: Partial<LeadsQuery>, segment: string | null = latest.current.segment) => {
    const merged = { ...latest.current.q, ...next };
    latest.current = { q: merged, segment };
    lastPushed.current = JSON.stringify(cleanFilter(merged.filters));
    const s = writeQuery(merged, { segment: segment ?? undefined });
    // The view lives in the browser: the URL changes at once, with no round trip to the server for the page.
    window.history.replaceState(null, "", s ? `${pathname}?${s}` : pathname);
  };
  const urlQuery = sp.toString();
  useEffect(() => rememberLeadsList(urlQuery), [urlQuery]);

  useEffect(() => {
    const cleaned = JSON.stringify(cleanFilter(draft));
    if (cleaned === lastPushed.current) return;
    const t = setTimeout(() => go({ filters: draft, page: 1 }), APPLY_AFTER_MS);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `go` reads the latest URL; re-run only on edits
  }, [draft]);

  const [columns, setColumns] = useLeadColumns(appId);
  const catalog = usePropCatalog(appId);
  const segments = useSegments(appId);
  const leads = useLeads(appId, q, columns);
  useLeadsLive(appId);

  const openSegment = (s: Segment) => {
    const f: FilterGroup = isGroup(s.filters) ? s.filters : { type: "and", filters: [] };
    setDraft(f);
    go({ filters: f, page: 1 }, String(s.id));
  };
  const sortBy = (prop: string, first: "asc" | "desc") => {
    const now = latest.current.q;
    const order = now.sort !== prop ? first : now.order === "desc" ? "asc" : "desc";
    go({ sort: prop, order, page: 1 });
  };

  const applied = cleanFilter(q.filters);
  const exportQuery = new URLSearchParams();
  if (applied.filters.length) exportQuery.set("filters", JSON.stringify(applied));
  if (columns.length) exportQuery.set("props_extra", columns.join(","));
  const exportHref = `${appPath(appId)}/users/export${exportQuery.size ? `?${exportQuery}` : ""}`;

  const data = leads.data;
  const exportCapped = !!data && data.total > EXPORT_MAX_ROWS;
  return (
    <>
      <PageHeader
        title="Leads"
        description="People you know something about: filter, segment and reach out."
        actions={
          <div className="flex flex-wrap items-center gap-2">
            {/* Below 2xl the side panels sit under the table: one click away from here. */}
            <a href="#segments" className={`${headerLink} 2xl:hidden`}>
              Segments
            </a>
            <a href="#import" className={`${headerLink} 2xl:hidden`}>
              Import CSV
            </a>
            <ColumnPicker catalog={catalog.data ?? []} value={columns} onChange={setColumns} />
            <a
              href={exportHref}
              download
              aria-describedby={exportCapped ? EXPORT_CAP_NOTE : undefined}
              className={headerLink}
            >
              Export CSV
            </a>
          </div>
        }
      />
      <div className="grid gap-6 p-4 md:p-6 2xl:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-4">
          <section aria-label="Filter">
            <FilterBuilder
              value={draft}
              catalog={catalog.data ?? []}
              segments={segments.data ?? []}
              onChange={setDraft}
            />
          </section>
          <ErrorAlert error={catalog.error} title="Could not load the property list" />
          {leads.isError && (
            <div className="space-y-2">
              <ErrorAlert error={leads.error} title="Could not load leads" />
              <Button size="sm" variant="secondary" onClick={() => void leads.refetch()}>
                Try again
              </Button>
            </div>
          )}
          {leads.isPending && (
            <p className="flex items-center gap-2 text-sm text-slate-600">
              <Spinner label="Loading leads" /> Loading leads…
            </p>
          )}
          {data && (
            <>
              <Pager
                total={data.total}
                page={q.page}
                size={q.size}
                shown={data.users.length}
                onPage={(page) => go({ page })}
                onSize={(size) => go({ size, page: 1 })}
              />
              {exportCapped && (
                <p
                  id={EXPORT_CAP_NOTE}
                  role="note"
                  className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900"
                >
                  The export holds the first {formatCount(EXPORT_MAX_ROWS)} of these leads (in the order they
                  were created). Narrow the filter to export the others in parts.
                </p>
              )}
              {data.users.length === 0 ? (
                <EmptyState title="No leads match">
                  {applied.filters.length
                    ? "Loosen or remove a condition to see more people."
                    : "Users become leads once you know their name, email or phone."}
                </EmptyState>
              ) : (
                <LeadsTable
                  leads={data.users}
                  extra={columns}
                  catalog={catalog.data ?? []}
                  sort={q.sort}
                  order={q.order}
                  onSort={sortBy}
                  busy={leads.isFetching}
                />
              )}
            </>
          )}
        </div>
        <aside className="space-y-8">
          <div id="segments" className="scroll-mt-4">
            <SegmentsPanel appId={appId} current={applied} activeId={segmentId} onOpen={openSegment} />
          </div>
          <div id="import" className="scroll-mt-4">
            <ImportPanel
              appId={appId}
              onShowTag={(tag) => {
                const f: FilterGroup = {
                  type: "and",
                  filters: [{ property_name: "$tag", type: "tag", value: { value: tag } }],
                };
                setDraft(f);
                go({ filters: f, page: 1 }, null);
              }}
            />
          </div>
        </aside>
      </div>
    </>
  );
}
