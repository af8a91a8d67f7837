import { drawPreview, PREVIEW_STYLES } from "./preview";
import type { Preview } from "./protocol";

/**
 * The launcher, drawn by the loader itself (no frame needed to show it), and the panel that will hold the frame.
 * Both live in an open Shadow DOM under a custom-named host element, so the host page's CSS cannot reach them
 * (`button { display: none }` included); the host element itself gets `all: initial !important` inline, which
 * beats any rule of the page, so no page style hides it or becomes its containing block.
 */
const STYLES = `
.l{all:unset;box-sizing:border-box;position:fixed;bottom:20px;right:20px;z-index:2147483647;width:56px;height:56px;
border-radius:50%;background:var(--accent,#2563eb);color:#fff;display:flex;align-items:center;justify-content:center;
cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25)}
.l:focus-visible{outline:3px solid var(--accent,#2563eb);outline-offset:3px}
.b{position:absolute;top:-4px;right:-4px;min-width:20px;height:20px;padding:0 6px;box-sizing:border-box;
border-radius:10px;background:#dc2626;color:#fff;font:600 12px/20px system-ui,sans-serif;text-align:center}
.p{position:fixed;bottom:88px;right:20px;z-index:2147483647;width:min(360px,calc(100vw - 40px));
height:min(560px,calc(100vh - 108px));border-radius:12px;overflow:hidden;background:#fff;
box-shadow:0 8px 32px rgba(0,0,0,.3)}
.left .l,.left .p{right:auto;left:20px}
[hidden]{display:none!important}
iframe{display:block;border:0;width:100%;height:100%}
@media (max-width:480px){.p{inset:0;width:auto;height:auto;border-radius:0}}
${PREVIEW_STYLES}`;

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
): Launcher {
  const host = document.createElement("relay-messenger");
  host.style.cssText = "all:initial!important";
  const root = host.attachShadow({ mode: "open" });
  // A constructed sheet is not an inline <style>, so a host page whose CSP forbids inline styles still shows it.
  if ("adoptedStyleSheets" in root && typeof CSSStyleSheet.prototype.replaceSync === "function") {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLES);
    root.adoptedStyleSheets = [sheet];
  } else {
    const style = document.createElement("style");
    style.textContent = STYLES;
    root.append(style);
  }
  const wrap = document.createElement("div");
  wrap.innerHTML = `<button type="button" class="l" aria-expanded="false">${ICON}<span class="b" aria-hidden="true" hidden></span></button><div class="p" hidden></div>`;
  root.append(wrap);
  const button = wrap.firstElementChild as HTMLButtonElement;
  const badge = button.lastElementChild as HTMLSpanElement;
  const panel = wrap.lastElementChild as HTMLDivElement;
  let open = false;
  let unread = 0;
  const label = () => {
    const text = open ? "Close messages" : `Open messages${unread ? `, ${unread} unread` : ""}`;
    button.setAttribute("aria-label", text);
    button.title = text;
  };
  label();
  button.addEventListener("click", onClick);
  // Its × gives the focus back to the launcher.
  const preview = drawPreview(wrap, onPreview, () => button.focus());
  return {
    host,
    button,
    panel,
    setOpen(o) {
      open = o;
      panel.hidden = !o;
      button.setAttribute("aria-expanded", String(o));
      preview.setOpen(o);
      label();
    },
    setUnread(count) {
      unread = Math.max(0, Math.floor(count)) || 0;
      badge.hidden = unread === 0;
      badge.textContent = unread > 99 ? "99+" : String(unread);
      label();
    },
    setAppearance(accent, position) {
      if (accent && CSS.supports("color", accent)) wrap.style.setProperty("--accent", accent);
      wrap.className = position === "left" ? "left" : "";
    },
    setPreview: (p) => preview.set(p),
  };
}
