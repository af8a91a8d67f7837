import { isMessage, TAG, type FromFrame, type ToFrame } from "./protocol";

/**
 * The messenger's frame, for now a minimal one: a header with a close button, focus kept inside, Escape and the
 * button ask the loader to close, and the JS API calls the loader forwards are listed and acknowledged (as a
 * "call_received" event for the site's addCallback). The visitor API and the conversation view come next.
 */
let parentOrigin: string | undefined;
const outbox: FromFrame[] = [];

function post(m: FromFrame) {
  // Only to the page that embeds us, whose origin the loader's "hello" told: never to "*".
  if (parentOrigin) parent.postMessage(m, parentOrigin);
  else outbox.push(m);
}

function focusable(): HTMLElement[] {
  return Array.from(
    document.querySelectorAll<HTMLElement>("button, a[href], input, textarea, select, [tabindex]"),
  ).filter((el) => !(el as HTMLButtonElement).disabled && el.tabIndex >= 0);
}

addEventListener("message", (e: MessageEvent) => {
  if (e.source !== parent || !isMessage<ToFrame>(e.data)) return;
  const m = e.data;
  if (m.type === "hello") {
    parentOrigin = e.origin;
    post({ tag: TAG, type: "ready" });
    for (const queued of outbox.splice(0)) post(queued);
  } else if (m.type === "open") focusable()[0]?.focus();
  else if (m.type === "call") {
    const item = document.createElement("li");
    item.textContent = `${m.method}(${JSON.stringify(m.args)})`;
    document.getElementById("calls")?.append(item);
    post({ tag: TAG, type: "event", name: "call_received", data: { method: m.method, args: m.args } });
  }
});

document.getElementById("close")?.addEventListener("click", () => post({ tag: TAG, type: "close" }));

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") {
    post({ tag: TAG, type: "close" });
    return;
  }
  if (e.key !== "Tab") return;
  // Focus trap: Tab past the last control comes back to the first, Shift+Tab before the first to the last.
  const all = focusable();
  const first = all[0];
  const last = all[all.length - 1];
  if (!first || !last) return;
  const at = document.activeElement;
  if (e.shiftKey && (at === first || !all.includes(at as HTMLElement))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (at === last || !all.includes(at as HTMLElement))) {
    e.preventDefault();
    first.focus();
  }
});
