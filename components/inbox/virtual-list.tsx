"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useImperativeHandle, useRef, type ReactNode, type Ref } from "react";

export interface VirtualListHandle {
  scrollToIndex: (index: number) => void;
}

interface VirtualListProps<T> {
  items: T[];
  rowHeight: number;
  getKey: (item: T) => string;
  renderRow: (item: T, index: number) => ReactNode;
  /** Called when the last rows come into view (load the next page). */
  onEndReached?: () => void;
  overscan?: number;
  label: string;
  className?: string;
  handle?: Ref<VirtualListHandle>;
}

/**
 * A windowed list of fixed-height rows (TanStack Virtual): only the rows in view (plus `overscan`) are in the DOM,
 * so thousands of loaded conversations cost what a screenful does.
 */
export function VirtualList<T>({
  items,
  rowHeight,
  getKey,
  renderRow,
  onEndReached,
  overscan = 6,
  label,
  className,
  handle,
}: VirtualListProps<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    getItemKey: (i) => getKey(items[i]!),
    overscan,
    // Before the first measurement (and in the server render): a screenful, not nothing.
    initialRect: { width: 0, height: 800 },
  });

  useImperativeHandle(
    handle,
    () => ({ scrollToIndex: (index) => virtualizer.scrollToIndex(index, { align: "auto" }) }),
    [virtualizer],
  );

  const rows = virtualizer.getVirtualItems();
  const last = rows.length ? rows[rows.length - 1]!.index + 1 : 0;
  const endRef = useRef(onEndReached);
  useEffect(() => {
    endRef.current = onEndReached;
  }, [onEndReached]);
  useEffect(() => {
    if (items.length > 0 && last >= items.length - 3) endRef.current?.();
  }, [last, items.length]);

  return (
    <div ref={scroller} className={className} style={{ overflowY: "auto" }}>
      <ul aria-label={label} style={{ position: "relative", height: virtualizer.getTotalSize(), margin: 0 }}>
        {rows.map((row) => (
          <li
            key={row.key}
            aria-setsize={items.length}
            aria-posinset={row.index + 1}
            style={{ position: "absolute", top: row.start, left: 0, right: 0, height: rowHeight }}
          >
            {renderRow(items[row.index]!, row.index)}
          </li>
        ))}
      </ul>
    </div>
  );
}
