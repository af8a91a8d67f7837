"use client";

import { useMemo, type ReactNode } from "react";
import { useMatchingCount } from "@/lib/client/inbox/use-matching-count";
import type { ListParams } from "@/lib/client/inbox/filters";
import type { Conversation } from "@/lib/client/inbox/types";
import type { AdminMember } from "@/lib/client/settings-types";
import { BulkActionBar } from "./bulk-action-bar";
import { useBulkSelection, type BulkSelection } from "./use-bulk-selection";

interface Input {
  appId: string;
  meId: string;
  params: ListParams;
  items: Conversation[];
  /** Whether the list has pages not loaded yet. */
  more: boolean;
  admins: AdminMember[];
}

/** The Inbox list's bulk actions: the selection over the loaded rows, and the bar that acts on it. */
export function useInboxBulk(i: Input): {
  selection: BulkSelection;
  bar: ReactNode;
  matching: number | undefined;
} {
  const order = useMemo(() => i.items.map((c) => String(c.id)), [i.items]);
  const selection = useBulkSelection(order, JSON.stringify(i.params));
  // Asked once the whole loaded page is picked: that is when "select all N matching" is offered.
  const pagePicked = selection.count > 0 && selection.count >= order.length;
  const counted = useMatchingCount(i.appId, i.params, pagePicked && (i.more || selection.allMatching)).data;
  const matching = counted && !counted.over_limit ? counted.count : undefined;
  const bar = (
    <BulkActionBar
      appId={i.appId}
      meId={i.meId}
      admins={i.admins}
      selection={selection}
      params={i.params}
      matching={matching}
    />
  );
  return { selection, bar, matching };
}
