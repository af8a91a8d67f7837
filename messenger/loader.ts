import { drawLauncher, type Launcher } from "./launcher";
import { isMessage, TAG, type FromFrame, type ToFrame } from "./protocol";
import { carrotQueue, replayQueue, type ApiMethod } from "./queue";

/**
 * /messenger.js, added to a site by the install snippet (lib/messenger/install-snippet.ts): an inline stub, then
 * `<script async src="ORIGIN/messenger.js" data-key="mk_…">`. A page may call the JS API before this script has
 * loaded through the stubs, Relay's and either shape of carrotquest's (messenger/queue.ts reads both):
 *   window.Relay = window.Relay || function(){(Relay.q=Relay.q||[]).push(arguments)}   Relay("track", "x", {…})
 *   carrotquest.track = function(){carrotquestasync.push("track", arguments)}          (each method alike)
 *   carrotquest.track = function(){carrotquestasync.push(["track"].concat([].slice.call(arguments)))}
 * This replays both queues in order (carrotquest's first: it carries connect), then puts the real objects in the
 * stubs' place, carrotquest's queue included (a page may have kept its stubs), so later calls act at once.
 *
 * Methods: connect(key, settings), auth(user_id, hash), identify(props | operations), track(name, params),
 * trackMessageInteraction(sending_id, "read" | "clicked"), open(), close(), onReady(fn), addCallback(name, fn),
 * removeCallback(name, fn?). Callbacks: messenger_opened, messenger_closed, call_received {method, args},
 * message_received, conversation_started, and auth_refused {user_id, status, error, message} when the server
 * refuses an auth (a bad hash): the visitor stays anonymous, and onReady fires all the same.
 *
 * It draws the launcher itself and creates the messenger's iframe after the page's load event (when idle), on a
 * pointer or focus on the launcher, or on the first click, whichever comes first. The launcher's unread badge and
 * previews come in /messenger/news.js, loaded once the frame has any (messenger/news-load.ts).
 */
type Fn = (...args: unknown[]) => void;
/** The news chunk's content hash, set by scripts/build-messenger.mjs: a new chunk is a new URL. */
declare const NEWS_VERSION: string;
interface RelayGlobal {
  (method: string, ...args: unknown[]): void;
  q?: ArrayLike<ArrayLike<unknown>>;
  loaded?: boolean;
}
interface HostWindow {
  Relay?: RelayGlobal;
  carrotquest?: Record<string, unknown>;
  carrotquestasync?: ArrayLike<unknown> | ReturnType<typeof carrotQueue>;
  requestIdleCallback?: (fn: () => void, opts?: { timeout: number }) => number;
}

const w = window as unknown as HostWindow;
const script =
  (document.currentScript as HTMLScriptElement | null) ??
  document.querySelector<HTMLScriptElement>('script[src*="/messenger.js"]');
// The messenger's origin is the one this script came from: one snippet works for any installation.
const ORIGIN = new URL(script?.src ?? location.href, location.href).origin;

let key = script?.dataset.key;
let launcher: Launcher | undefined;
let frame: HTMLIFrameElement | undefined;
let ready = false;
let isOpen = false;
let openWhenDrawn = false;
const outbox: ToFrame[] = [];
const readyFns: Fn[] = [];
const callbacks: Record<string, Fn[]> = {};

function safely(fn: Fn, ...args: unknown[]) {
  try {
    fn(...args);
  } catch (err) {
    console.error(err);
  }
}

function post(m: ToFrame) {
  if (!ready || !frame?.contentWindow) {
    outbox.push(m);
    return;
  }
  try {
    frame.contentWindow.postMessage(m, ORIGIN);
  } catch (err) {
    // Arguments that cannot be cloned (functions, DOM nodes): the call is dropped, the site told why.
    console.warn("Relay: call not sent", err);
  }
}

// The frame checks and serves these with the visitor API (messenger/frame/calls.ts); a bad call is its warning.
const forward =
  (method: string) =>
  (...args: unknown[]) =>
    post({ tag: TAG, type: "call", method, args });

function emit(name: string, data?: unknown) {
  for (const fn of callbacks[name] ?? []) safely(fn, data);
}

// The page as the frame last heard of it: a single-page site's navigations are told with the URL they left.
let shownUrl = location.href;
let referrer = document.referrer;
const page = () => ({ url: location.href, referrer, title: document.title });

function createFrame(l: Launcher) {
  const f = document.createElement("iframe");
  f.title = "Messenger";
  f.src = `${ORIGIN}/messenger/frame.html?key=${encodeURIComponent(key ?? "")}`;
  f.addEventListener("load", () =>
    f.contentWindow?.postMessage({ tag: TAG, type: "hello", page: page() }, ORIGIN),
  );
  l.panel.append(f);
  return f;
}

function show(open: boolean) {
  if (!launcher) {
    openWhenDrawn = open;
    return;
  }
  if (open === isOpen) return;
  isOpen = open;
  frame ??= createFrame(launcher);
  // Focus leaves the messenger with it only when it was inside (the shadow host is the page's active element).
  const focusInside = document.activeElement === launcher.host;
  launcher.setOpen(open);
  // Not queued before "ready": the frame is told then whether it is open.
  if (ready) post({ tag: TAG, type: open ? "open" : "closed" });
  if (open) frame.focus();
  else if (focusInside) launcher.button.focus();
  emit(open ? "messenger_opened" : "messenger_closed");
}

function onFrameMessage(e: MessageEvent) {
  if (e.origin !== ORIGIN || !frame || e.source !== frame.contentWindow || !isMessage<FromFrame>(e.data))
    return;
  const m = e.data;
  if (m.type === "ready") {
    ready = true;
    for (const queued of outbox.splice(0)) post(queued);
    if (isOpen) post({ tag: TAG, type: "open" });
    for (const fn of readyFns.splice(0)) safely(fn);
  } else if (m.type === "close") show(false);
  else if (m.type === "unread") launcher?.setUnread(m.count);
  else if (m.type === "appearance") launcher?.setAppearance(m.accent, m.position);
  else if (m.type === "event") emit(m.name, m.data);
  else if (m.type === "preview") launcher?.setPreview(m.preview);
}

function draw() {
  if (launcher || !key) return;
  if (!document.body) {
    document.addEventListener("DOMContentLoaded", draw);
    return;
  }
  const l = (launcher = drawLauncher(
    () => show(!isOpen),
    (send, action) => {
      if (action === "open") show(true);
      post({ tag: TAG, type: "message", send, action });
    },
    `${ORIGIN}/messenger/news.js?v=${NEWS_VERSION}`,
  ));
  l.host.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && isOpen) show(false);
  });
  document.body.append(l.host);
  addEventListener("message", onFrameMessage);
  if (openWhenDrawn) show(true);
  // Ready before the first click, without competing with the page's own loading.
  const preload = () => {
    const idle = w.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 1));
    idle(() => (frame ??= createFrame(l)), { timeout: 2000 });
  };
  // A pointer on the launcher or focus on it usually comes just before a click: start the frame then.
  for (const intent of ["pointerenter", "focus"]) {
    l.button.addEventListener(intent, () => (frame ??= createFrame(l)), { once: true });
  }
  if (document.readyState === "complete") preload();
  else addEventListener("load", preload);
}

/** Tells the frame when the URL changed without a load; a replaceState of the same URL is no news. */
function watchNavigation() {
  const changed = () => {
    if (location.href === shownUrl) return;
    referrer = shownUrl;
    shownUrl = location.href;
    // The next task: routers set the new title after pushing the URL.
    setTimeout(() => frame && post({ tag: TAG, type: "page", page: page() }), 0);
  };
  for (const name of ["pushState", "replaceState"] as const) {
    const original = history[name].bind(history);
    history[name] = (...args: Parameters<History["pushState"]>) => {
      const r = original(...args);
      changed();
      return r;
    };
  }
  addEventListener("popstate", changed);
  addEventListener("hashchange", changed);
}

/**
 * An emailed reply's "Open the conversation" link ends in `#relay-conversation=<id>`: the messenger opens on that
 * conversation. The hash leaves the address bar first, so neither a reload nor the page view the frame reports
 * carries it. After the queued calls, so a site's auth comes first and the conversation can be the user's.
 */
function openLinkedConversation() {
  const id = /^#relay-conversation=(\d{1,19})$/.exec(location.hash)?.[1];
  if (!id) return;
  history.replaceState(history.state, "", location.pathname + location.search);
  shownUrl = location.href;
  post({ tag: TAG, type: "conversation", id });
  show(true);
}

const methods: Record<ApiMethod, Fn> = {
  connect: (k, settings) => {
    if (typeof k === "string" && k && !key) key = k;
    post({ tag: TAG, type: "call", method: "connect", args: settings === undefined ? [] : [settings] });
    draw();
  },
  auth: forward("auth"),
  identify: forward("identify"),
  track: forward("track"),
  trackMessageInteraction: forward("trackMessageInteraction"),
  open: () => show(true),
  close: () => show(false),
  onReady: (fn) => {
    if (typeof fn !== "function") return;
    if (ready) safely(fn as Fn);
    else readyFns.push(fn as Fn);
  },
  addCallback: (name, fn) => {
    if (typeof name === "string" && typeof fn === "function") (callbacks[name] ??= []).push(fn as Fn);
  },
  removeCallback: (name, fn) => {
    if (typeof name !== "string") return;
    callbacks[name] = fn ? (callbacks[name] ?? []).filter((f) => f !== fn) : [];
  },
};

// Own keys only: a queued "toString" is an unknown method, not Object's.
const isMethod = (m: unknown): m is ApiMethod =>
  typeof m === "string" && Object.prototype.hasOwnProperty.call(methods, m);

function call(method: unknown, args: unknown[]) {
  if (isMethod(method)) methods[method](...args);
  else console.warn("Relay: unknown method", method);
}

if (!w.Relay?.loaded) {
  const cqQueue = w.carrotquestasync;
  const rQueue = w.Relay?.q;
  const relay: RelayGlobal = (method, ...args) => call(method, args);
  relay.loaded = true;
  w.Relay = relay;
  const cq: Record<string, unknown> = w.carrotquest ?? {};
  for (const name of Object.keys(methods)) cq[name] = (...args: unknown[]) => call(name, args);
  w.carrotquest = cq;
  w.carrotquestasync = carrotQueue(call);
  if (Array.isArray(cqQueue)) replayQueue(cqQueue, call);
  if (Array.isArray(rQueue)) replayQueue(rQueue, call);
  openLinkedConversation();
  watchNavigation();
  draw();
}
