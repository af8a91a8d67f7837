import { App } from "./frame/app";
import { runCall } from "./frame/calls";
import { startPreview } from "./frame/preview-mode";
import { startBotPreview } from "./frame/preview-bot";
import { isBotPreviewQuery, isPreviewQuery } from "./preview-protocol";

let calls: Promise<unknown> = Promise.resolve();
import { isMessage, TAG, type FromFrame, type ToFrame } from "./protocol";

/**
 * The messenger's frame (our origin, embedded by the loader): it learns the host page from the loader's "hello",
 * boots the visitor (messenger/frame/app.ts), and answers the loader: appearance, unread count, events for the
 * site's addCallback, "close" on Escape or the close button. Focus stays inside while it is open.
 */
let parentOrigin: string | undefined;
const outbox: FromFrame[] = [];
const key = new URLSearchParams(location.search).get("key") ?? "";
let app: App | undefined;
let booted: Promise<unknown> | undefined;
// The editors' previews (the Messages editor's, frame/preview-mode.ts; the Bots editor's test mode,
// frame/preview-bot.ts): no visitor boots, no loader is answered, no focus trap.
const previewMode = isPreviewQuery(location.search) || isBotPreviewQuery(location.search);
if (isPreviewQuery(location.search)) startPreview();
else if (previewMode) startBotPreview();

function post(m: FromFrame) {
  // Only to the page that embeds us, whose origin the loader's "hello" told: never to "*".
  if (parentOrigin) parent.postMessage(m, parentOrigin);
  else outbox.push(m);
}

const emit = (name: string, data?: unknown) => post({ tag: TAG, type: "event", name, data });

function focusable(): HTMLElement[] {
  return Array.from(
    document.querySelectorAll<HTMLElement>("button, a[href], input, textarea, select, [tabindex]"),
  ).filter((el) => !(el as HTMLButtonElement).disabled && el.tabIndex >= 0 && el.offsetParent !== null);
}

addEventListener("message", (e: MessageEvent) => {
  if (previewMode || e.source !== parent || !isMessage<ToFrame>(e.data)) return;
  const m = e.data;
  if (m.type === "hello") {
    parentOrigin = e.origin;
    post({ tag: TAG, type: "ready" });
    for (const queued of outbox.splice(0)) post(queued);
    if (!app) {
      const a = (app = new App({
        key,
        origin: e.origin,
        page: m.page,
        post: (x) => post({ tag: TAG, ...x }),
        emit,
      }));
      booted = a.start();
      booted.catch((err: unknown) => console.warn("Relay: the messenger did not start", err));
    }
  } else if (m.type === "page") {
    void app?.pageShown(m.page);
  } else if (m.type === "open" || m.type === "closed") {
    if (app) app.visible = m.type === "open";
    if (m.type === "open") {
      focusable()[0]?.focus();
      app?.markRead();
    }
  } else if (m.type === "call") {
    // Acknowledged at once (for the site's addCallback), run once the visitor is booted.
    emit("call_received", { method: m.method, args: m.args });
    afterBoot(m.method, (a) => runCall(a, m.method, m.args));
  } else if (m.type === "conversation") {
    afterBoot("opening the linked conversation", (a) => a.openLinked(Number(m.id)));
  } else if (m.type === "message") {
    afterBoot("showing the message", async (a) => a.messages.fromPreview(Number(m.send), m.action));
  }
});

/**
 * Runs once the visitor is booted, one after another in the loader's order: an identify after an auth acts on the
 * user the auth logged in as, and a linked conversation opened after it can be that user's.
 */
function afterBoot(what: string, run: (a: App) => Promise<unknown>) {
  const a = app;
  const boot = booted;
  if (!a || !boot) return;
  calls = calls
    .then(() => boot)
    .then(() => run(a))
    .catch((err: unknown) => console.warn(`Relay: ${what} failed`, err));
}

document.getElementById("close")?.addEventListener("click", () => post({ tag: TAG, type: "close" }));

document.addEventListener("keydown", (e) => {
  if (previewMode) return;
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
