"use client";

import { useState } from "react";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { FilterGroup } from "@/lib/leads/filter-grammar";
import type { Segment } from "@/lib/client/leads-types";
import { useCreateSegment } from "@/lib/client/use-create-segment";
import { useDeleteSegment } from "@/lib/client/use-delete-segment";
import { useSegments } from "@/lib/client/use-segments";
import { useUpdateSegment } from "@/lib/client/use-update-segment";

/** Saved filters: save the current one, open, rename, overwrite with the current filter, delete. */
export function SegmentsPanel({
  appId,
  current,
  activeId,
  onOpen,
}: {
  appId: string;
  current: FilterGroup;
  activeId: string | null;
  onOpen: (s: Segment) => void;
}) {
  const segments = useSegments(appId);
  const create = useCreateSegment(appId);
  const update = useUpdateSegment(appId);
  const remove = useDeleteSegment(appId);
  const [name, setName] = useState("");
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);

  return (
    <section aria-labelledby="segments-title" className="space-y-3">
      <h2 id="segments-title" className="text-sm font-semibold text-slate-900">
        Segments
      </h2>
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (!name.trim()) return;
          create.mutate(
            { name: name.trim(), filters: current },
            {
              onSuccess: (s) => {
                setName("");
                onOpen(s);
              },
            },
          );
        }}
      >
        <Input
          aria-label="New segment name"
          placeholder="Name this filter…"
          value={name}
          maxLength={255}
          onChange={(e) => setName(e.target.value)}
          className="h-8"
        />
        <Button type="submit" size="sm" loading={create.isPending} disabled={!name.trim()}>
          Save segment
        </Button>
      </form>
      <ErrorAlert error={create.error ?? update.error ?? remove.error} />
      {segments.isPending && <p className="text-sm text-slate-500">Loading segments…</p>}
      <ErrorAlert error={segments.error} title="Could not load segments" />
      {segments.data?.length === 0 && <p className="text-sm text-slate-500">No segments yet.</p>}
      <ul className="divide-y divide-slate-100" aria-label="Saved segments">
        {segments.data?.map((s) => {
          const id = String(s.id);
          if (renaming?.id === id) {
            return (
              <li key={id} className="py-2">
                <form
                  className="flex gap-2"
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (renaming.name.trim()) update.mutate({ id, name: renaming.name.trim() });
                    setRenaming(null);
                  }}
                >
                  <Input
                    aria-label={`New name for ${s.name}`}
                    className="h-8"
                    autoFocus
                    value={renaming.name}
                    maxLength={255}
                    onChange={(e) => setRenaming({ id, name: e.target.value })}
                    onKeyDown={(e) => e.key === "Escape" && setRenaming(null)}
                  />
                  <Button type="submit" size="sm">
                    Rename
                  </Button>
                </form>
              </li>
            );
          }
          return (
            <li key={id} className="flex flex-wrap items-center gap-1 py-2">
              <Button
                size="sm"
                variant="ghost"
                aria-current={activeId === id ? "true" : undefined}
                className={activeId === id ? "bg-brand-50 text-brand-800" : ""}
                onClick={() => onOpen(s)}
              >
                {s.name}
              </Button>
              <span className="ml-auto flex gap-1">
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Rename ${s.name}`}
                  onClick={() => setRenaming({ id, name: s.name })}
                >
                  Rename
                </Button>
                {activeId === id && (
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Update ${s.name} with the current filter`}
                    onClick={() => update.mutate({ id, filters: current })}
                  >
                    Update
                  </Button>
                )}
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Delete ${s.name}`}
                  onClick={() => {
                    if (window.confirm(`Delete the segment “${s.name}”?`)) remove.mutate(id);
                  }}
                >
                  Delete
                </Button>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
