"use client";

import {
  createContext,
  useContext,
  useId,
  type ButtonHTMLAttributes,
  type HTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
} from "react";

interface TabsState {
  base: string;
  ids: readonly string[];
  selected: string;
  select: (index: number) => void;
}

const TabsContext = createContext<TabsState | null>(null);

function useTabsState(part: string): TabsState {
  const state = useContext(TabsContext);
  if (!state) throw new Error(`<${part}> belongs inside <Tabs>`);
  return state;
}

const tabId = (base: string, id: string) => `${base}-tab-${id}`;
const panelId = (base: string, id: string) => `${base}-panel-${id}`;

interface TabsProps<Id extends string> {
  /** Every tab's id, in the order the strip shows them (the arrow keys follow it). */
  ids: readonly Id[];
  selected: Id;
  onSelect: (id: Id) => void;
  children: ReactNode;
}

/**
 * The panel's one tab set (WAI-ARIA tabs, automatic activation): a <TabList> of <Tab>s and the selected tab's
 * <TabPanel>, anywhere below. One tab stop for the strip (roving tabindex); Left and Right move and wrap, Home and
 * End go to the ends, and moving selects. Only the selected tab's panel is rendered: the others' `aria-controls`
 * name a panel that appears when they are chosen.
 */
export function Tabs<Id extends string>({ ids, selected, onSelect, children }: TabsProps<Id>) {
  const base = useId();
  const select = (index: number) => {
    const id = ids[index];
    if (id === undefined) return;
    onSelect(id);
    document.getElementById(tabId(base, id))?.focus();
  };
  return <TabsContext value={{ base, ids, selected, select }}>{children}</TabsContext>;
}

interface TabListProps extends Omit<HTMLAttributes<HTMLDivElement>, "role" | "aria-label"> {
  /** The strip's accessible name ("Status", "Settings sections"). */
  label: string;
}

export function TabList({ label, onKeyDown, ...rest }: TabListProps) {
  const { ids, selected, select } = useTabsState("TabList");
  const keys = (e: KeyboardEvent<HTMLDivElement>) => {
    onKeyDown?.(e);
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const at = ids.indexOf(selected);
    const n = ids.length;
    const next =
      e.key === "ArrowRight"
        ? (at + 1) % n
        : e.key === "ArrowLeft"
          ? (at - 1 + n) % n
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? n - 1
              : null;
    if (next === null) return;
    e.preventDefault();
    select(next);
  };
  return <div {...rest} role="tablist" aria-label={label} aria-orientation="horizontal" onKeyDown={keys} />;
}

interface TabProps extends Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  "id" | "className" | "onClick" | "type"
> {
  id: string;
  /** A class, or one chosen by whether the tab is the selected one. */
  className?: string | ((selected: boolean) => string);
}

export function Tab({ id, className, children, ...rest }: TabProps) {
  const { base, ids, selected, select } = useTabsState("Tab");
  const on = id === selected;
  return (
    <button
      {...rest}
      type="button"
      role="tab"
      id={tabId(base, id)}
      aria-selected={on}
      aria-controls={panelId(base, id)}
      tabIndex={on ? 0 : -1}
      onClick={() => select(ids.indexOf(id))}
      className={typeof className === "function" ? className(on) : className}
    >
      {children}
    </button>
  );
}

/** The selected tab's content, labelled by that tab. */
export function TabPanel(props: Omit<HTMLAttributes<HTMLDivElement>, "role" | "id">) {
  const { base, selected } = useTabsState("TabPanel");
  return (
    <div {...props} role="tabpanel" id={panelId(base, selected)} aria-labelledby={tabId(base, selected)} />
  );
}
