import { newsRenderer, type NewsState } from "./news-load";
import type { Preview } from "./protocol";
import { addStyles } from "./styles";

/**
 * The launcher, drawn by the loader itself (no frame needed to show it), and the panel that will hold the frame.
 * Both live in an open Shadow DOM under a custom-named host element, so the host page's CSS cannot reach them
 * (`button { display: none }` included); the host element itself gets `all: initial !important` inline, which
 * beats any rule of the page, so no page style hides it or becomes its containing block. Its news (the unread badge,
 * a message's preview) is drawn by a chunk loaded when there is any (messenger/news-load.ts).
 */
// Lines end in a backslash, so the string has no line breaks: every byte of the loader counts (its budget,
// docs/decisions.md). `.l,.p` after `.l`, whose `all: unset` would undo it.
const STYLES = `\
.l{all:unset;bottom:20px;width:56px;height:56px;border-radius:50%;background:var(--accent,#2563eb);color:#fff;\
display:grid;place-items:center;cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25)}\
.l:focus-visible{outline:3px solid var(--accent,#2563eb);outline-offset:3px}\
.l,.p{position:fixed;right:20px;z-index:2147483647}\
.p{bottom:88px;width:min(360px,calc(100vw - 40px));height:min(560px,calc(100vh - 108px));border-radius:12px;\
overflow:hidden;background:#fff;box-shadow:0 8px 32px rgba(0,0,0,.3)}\
.left .l,.left .p{right:auto;left:20px}\
[hidden]{display:none!important}\
iframe{display:block;border:0;width:100%;height:100%}\
@media (max-width:480px){.p{inset:0;width:auto;height:auto;border-radius:0}}`;

const ICON =
  '<svg width="28" height="28" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">' +
  '<path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z"/></svg>';

export interface Launcher {
  host: HTMLElement;
  button: HTMLButtonElement;
  panel: HTMLDivElement;
  setOpen(open: boolean): void;
  setUnread(count: number): void;
  setAppearance(accent?: string, position?: "left" | "right"): void;
  /** A message's preview above the launcher while the messenger is closed (messenger/preview.ts). */
  setPreview(p: Preview | null): void;
}

export function drawLauncher(
  onClick: () => void,
  onPreview: (send: number, action: "open" | "dismiss") => void,
  newsSrc: string,
): Launcher {
  const host = document.createElement("relay-messenger");
  host.style.cssText = "all:initial!important";
  const root = host.attachShadow({ mode: "open" });
  addStyles(root, STYLES);
  const wrap = document.createElement("div");
  // No type="button": a button in a shadow tree has no form to submit.
  wrap.innerHTML = `<button class="l" aria-expanded="false">${ICON}</button><div class="p" hidden></div>`;
  root.append(wrap);
  const button = wrap.firstElementChild as HTMLButtonElement;
  const panel = wrap.lastElementChild as HTMLDivElement;
  const state: NewsState = { open: false, unread: 0, preview: null };
  const news = newsRenderer(newsSrc, wrap, button, state, onPreview);
  // The label, not the badge, says the count: it is there before the news chunk is.
  const changed = () => {
    const { open, unread } = state;
    const text = open ? "Close messages" : `Open messages${unread ? `, ${unread} unread` : ""}`;
    button.setAttribute("aria-label", text);
    button.title = text;
    news();
  };
  changed();
  button.addEventListener("click", onClick);
  return {
    host,
    button,
    panel,
    setOpen(o) {
      state.open = o;
      panel.hidden = !o;
      button.setAttribute("aria-expanded", String(o));
      changed();
    },
    setUnread(count) {
      state.unread = Math.max(0, Math.floor(count)) || 0;
      changed();
    },
    setAppearance(accent, position) {
      if (accent && CSS.supports("color", accent)) wrap.style.setProperty("--accent", accent);
      wrap.className = position === "left" ? "left" : "";
    },
    setPreview(p) {
      state.preview = p;
      changed();
    },
  };
}
