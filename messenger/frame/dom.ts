/** A small element builder: the frame is plain DOM (no framework: docs/decisions.md, "Messenger frame"). */
type Child = Node | string | number | null | undefined | false;
type Attr = string | number | boolean;
type Props = Record<string, Attr | null | undefined | ((e: Event) => unknown)>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props | null,
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = String(v);
    // Properties (value, disabled, hidden…) where the element has them; attributes (aria-*, role…) otherwise.
    else if (k in el && !k.includes("-")) (el as unknown as Record<string, Attr>)[k] = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "number" ? String(c) : c);
  }
  return el;
}

/** Replaces `el`'s content. */
export function fill(el: Element, ...children: (Child | Child[])[]) {
  el.replaceChildren();
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "number" ? String(c) : c);
  }
}

/**
 * `fill` for a view that re-renders on every update (a heartbeat, a socket event): the control the visitor is on
 * keeps focus, and inputs keep what was typed, matched by their `data-key` in the new content.
 */
export function refill(el: Element, ...children: (Child | Child[])[]) {
  const active = document.activeElement as HTMLElement | null;
  const focused = active && el.contains(active) ? active.dataset.key : undefined;
  const typed = [...el.querySelectorAll<HTMLInputElement>("input[data-key]")].map((i) => [
    i.dataset.key!,
    i.value,
  ]);
  fill(el, ...children);
  const byKey = (k: string) => el.querySelector<HTMLElement>(`[data-key="${CSS.escape(k)}"]`);
  for (const [k, v] of typed) {
    const input = byKey(k!);
    if (input instanceof HTMLInputElement && !input.value) input.value = v!;
  }
  if (focused) byKey(focused)?.focus();
}

/** "14:05" today, "3 Nov" otherwise, from seconds since the epoch. */
export function when(seconds: number): string {
  const d = new Date(seconds * 1000);
  const today = new Date().toDateString() === d.toDateString();
  return today
    ? d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })
    : d.toLocaleDateString(undefined, { day: "numeric", month: "short" });
}
