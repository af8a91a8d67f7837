"use client";

import { useMemo, type ReactNode, type Ref } from "react";
import { cn } from "@/components/ui/cn";
import { Spinner } from "@/components/ui/spinner";
import { Tab, TabList, TabPanel, Tabs } from "@/components/ui/tabs";
import type { InboxFilter, InboxTab } from "@/lib/client/inbox/filters";
import { flattenConversations } from "@/lib/client/inbox/list-cache";
import type { Conversation, CountsResult } from "@/lib/client/inbox/types";
import type { useInboxConversations } from "@/lib/client/inbox/use-inbox-conversations";
import type { Channel, AdminMember } from "@/lib/client/settings-types";
import { ConversationRow, ROW_HEIGHT } from "./conversation-row";
import { VirtualList, type VirtualListHandle } from "./virtual-list";
import { SelectAllRow } from "./select-all-row";
import type { BulkSelection } from "./use-bulk-selection";
import { TeamPopover } from "./team-popover";

const TABS: { id: InboxTab; label: string }[] = [
  { id: "open", label: "Open" },
  { id: "delayed", label: "Snoozed" },
  { id: "closed", label: "Closed" },
];
const TAB_IDS = TABS.map((t) => t.id);

const selectClass =
  "h-8 w-full min-w-0 rounded-md bg-white px-2 text-sm text-slate-800 ring-1 ring-slate-300 ring-inset focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none";

interface ListProps {
  filter: InboxFilter;
  onFilter: (patch: Partial<InboxFilter>) => void;
  counts: CountsResult | undefined;
  admins: AdminMember[];
  channels: Channel[];
  meId: string;
  query: ReturnType<typeof useInboxConversations>;
  selected: string | null;
  onSelect: (id: string) => void;
  listRef: Ref<VirtualListHandle>;
  className?: string;
  actions?: ReactNode;
  /** The checkboxes' state, and the bar acting on them (components/inbox/bulk-action-bar.tsx). */
  bulk: { selection: BulkSelection; bar: ReactNode; matching: number | undefined };
}

export function useListItems(query: ListProps["query"]): Conversation[] {
  return useMemo(() => flattenConversations(query.data), [query.data]);
}

export function ConversationList(props: ListProps) {
  const { filter, onFilter, counts, admins, channels, meId, query, selected, onSelect, listRef } = props;
  const items = useListItems(query);
  const scoped =
    filter.channel === null ? counts : counts?.channels.find((c) => String(c.id) === filter.channel);
  const tabCount = (t: InboxTab) => scoped?.[t];

  return (
    <section aria-label="Conversations" className={cn("flex min-h-0 flex-col bg-white", props.className)}>
      <Tabs ids={TAB_IDS} selected={filter.tab} onSelect={(tab) => onFilter({ tab })}>
        <div className="border-b border-slate-200 px-4 pt-3">
          <div className="flex items-center gap-2">
            <h1 className="flex-1 text-lg font-semibold text-slate-900">Inbox</h1>
            <TeamPopover admins={admins} meId={meId} />
            {props.actions}
          </div>
          <TabList label="Status" className="mt-2 flex gap-1">
            {TABS.map((t) => {
              const n = tabCount(t.id);
              return (
                <Tab
                  key={t.id}
                  id={t.id}
                  data-testid={`tab-${t.id}`}
                  className={(active) =>
                    cn(
                      "-mb-px flex items-center gap-1.5 border-b-2 px-2 py-2 text-sm font-medium",
                      "focus-visible:outline-2 focus-visible:outline-brand-600",
                      active
                        ? "border-brand-600 text-brand-700"
                        : "border-transparent text-slate-600 hover:text-slate-900",
                    )
                  }
                >
                  {t.label}
                  <span
                    className="rounded-full bg-slate-100 px-1.5 text-xs text-slate-700 tabular-nums"
                    data-testid={`count-${t.id}`}
                  >
                    {n ?? "–"}
                  </span>
                </Tab>
              );
            })}
          </TabList>
        </div>
        <div className="grid grid-cols-3 gap-2 border-b border-slate-200 px-4 py-2">
          <label className="min-w-0 text-xs text-slate-600">
            Assignee
            <select
              className={selectClass}
              aria-label="Filter by assignee"
              value={filter.assignee}
              onChange={(e) => onFilter({ assignee: e.target.value })}
            >
              <option value="all">All</option>
              <option value="mine">Mine{scoped ? ` (${scoped.mine})` : ""}</option>
              <option value="unassigned">Unassigned{scoped ? ` (${scoped.unassigned})` : ""}</option>
              {admins
                .filter((a) => String(a.id) !== meId)
                .map((a) => (
                  <option key={String(a.id)} value={String(a.id)}>
                    {a.name}
                  </option>
                ))}
            </select>
          </label>
          <label className="min-w-0 text-xs text-slate-600">
            Channel
            <select
              className={selectClass}
              aria-label="Filter by channel"
              value={filter.channel ?? ""}
              onChange={(e) => onFilter({ channel: e.target.value || null })}
            >
              <option value="">All</option>
              <option value="0">No channel</option>
              {channels.map((c) => (
                <option key={String(c.id)} value={String(c.id)}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <label className="min-w-0 text-xs text-slate-600">
            Rating
            <select
              className={selectClass}
              aria-label="Filter by rating"
              value={filter.rating ?? ""}
              onChange={(e) => onFilter({ rating: (e.target.value || null) as InboxFilter["rating"] })}
            >
              <option value="">Any</option>
              <option value="rated">Rated</option>
              <option value="unrated">Asked, not rated</option>
              <option value="good">Good (4–5)</option>
              <option value="bad">Bad (1–3)</option>
              {[5, 4, 3, 2, 1].map((n) => (
                <option key={n} value={String(n)}>
                  {"★".repeat(n)} ({n})
                </option>
              ))}
            </select>
          </label>
          <label className="min-w-0 text-xs text-slate-600">
            Tag
            <input
              className={selectClass}
              aria-label="Filter by tag"
              defaultValue={filter.tag ?? ""}
              key={filter.tag ?? ""}
              placeholder="Any"
              onKeyDown={(e) => {
                if (e.key === "Enter") onFilter({ tag: e.currentTarget.value.trim() || null });
              }}
              onBlur={(e) => {
                const v = e.currentTarget.value.trim() || null;
                if (v !== filter.tag) onFilter({ tag: v });
              }}
            />
          </label>
        </div>
        <TabPanel className="flex min-h-0 flex-1 flex-col">
          {props.bulk.bar}
          {items.length > 0 && (
            <SelectAllRow
              selection={props.bulk.selection}
              loaded={items.length}
              more={query.hasNextPage}
              matching={props.bulk.matching}
            />
          )}
          {query.isPending ? (
            <div className="flex flex-1 items-center justify-center">
              <Spinner className="size-5 text-slate-400" label="Loading conversations" />
            </div>
          ) : query.isError ? (
            <div role="alert" className="p-4 text-sm text-red-700">
              Can’t load conversations: {query.error.message}{" "}
              <button type="button" className="underline" onClick={() => void query.refetch()}>
                Try again
              </button>
            </div>
          ) : items.length === 0 ? (
            <p className="p-6 text-center text-sm text-slate-600" data-testid="list-empty">
              No conversations here.
            </p>
          ) : (
            <VirtualList
              handle={listRef}
              items={items}
              rowHeight={ROW_HEIGHT}
              label="Conversation list"
              className="min-h-0 flex-1"
              getKey={(c) => String(c.id)}
              onEndReached={() => {
                // Not over a read of the whole list (after a bulk job, say): fetchNextPage would cancel it and add
                // a page to the pages as they were.
                if (query.hasNextPage && !query.isFetching) void query.fetchNextPage();
              }}
              renderRow={(c) => (
                <ConversationRow
                  conversation={c}
                  meId={meId}
                  selected={String(c.id) === selected}
                  onSelect={onSelect}
                  checked={props.bulk.selection.allMatching || props.bulk.selection.ids.has(String(c.id))}
                  onCheck={(id, range) => props.bulk.selection.toggle(id, { range })}
                />
              )}
            />
          )}
          {query.isFetchingNextPage && (
            <p
              className="border-t border-slate-200 p-2 text-center text-xs text-slate-500"
              aria-live="polite"
            >
              Loading more…
            </p>
          )}
        </TabPanel>
      </Tabs>
    </section>
  );
}
