"use client";

import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type Ref } from "react";

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
 * A windowed list of fixed-height rows: only the rows in view (plus `overscan`) are in the DOM, so thousands of
 * loaded conversations cost what a screenful does.
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
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(800);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    setHeight(el.clientHeight || 800);
    const ro = new ResizeObserver(() => setHeight(el.clientHeight || 800));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  useEffect(() => {
    if (!handle) return;
    const api: VirtualListHandle = {
      scrollToIndex: (index) => {
        const el = scroller.current;
        if (!el) return;
        const top = index * rowHeight;
        if (top < el.scrollTop) el.scrollTop = top;
        else if (top + rowHeight > el.scrollTop + el.clientHeight)
          el.scrollTop = top + rowHeight - el.clientHeight;
      },
    };
    if (typeof handle === "function") handle(api);
    else (handle as { current: VirtualListHandle | null }).current = api;
  }, [handle, rowHeight]);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + overscan);

  const endRef = useRef(onEndReached);
  useEffect(() => {
    endRef.current = onEndReached;
  }, [onEndReached]);
  useEffect(() => {
    if (items.length > 0 && last >= items.length - 3) endRef.current?.();
  }, [last, items.length]);

  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    const item = items[i]!;
    rows.push(
      <li
        key={getKey(item)}
        aria-setsize={items.length}
        aria-posinset={i + 1}
        style={{ position: "absolute", top: i * rowHeight, left: 0, right: 0, height: rowHeight }}
      >
        {renderRow(item, i)}
      </li>,
    );
  }

  return (
    <div
      ref={scroller}
      className={className}
      style={{ overflowY: "auto" }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <ul aria-label={label} style={{ position: "relative", height: items.length * rowHeight, margin: 0 }}>
        {rows}
      </ul>
    </div>
  );
}
