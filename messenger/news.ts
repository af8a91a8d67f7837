import type { DrawNews } from "./news-load";
import { drawPreview, PREVIEW_STYLES } from "./preview";
import { TAG, type Preview } from "./protocol";
import { addStyles } from "./styles";

/**
 * /messenger/news.js, loaded by the loader the first time the frame reports news (messenger/news-load.ts): the
 * launcher's unread badge and the preview of a new message above it (messenger/preview.ts).
 */
const BADGE_STYLES = `
.b{position:absolute;top:-4px;right:-4px;min-width:20px;height:20px;padding:0 6px;box-sizing:border-box;
border-radius:10px;background:#dc2626;color:#fff;font:600 12px/20px system-ui,sans-serif;text-align:center}`;

const drawNews: DrawNews = (wrap, button, state, act) => {
  addStyles(wrap.getRootNode() as ShadowRoot, BADGE_STYLES + PREVIEW_STYLES);
  // The launcher's label says the count; the badge only shows it.
  const badge = document.createElement("span");
  badge.className = "b";
  badge.setAttribute("aria-hidden", "true");
  button.append(badge);
  // Its × gives the focus back to the launcher.
  const preview = drawPreview(wrap, act, () => button.focus());
  let shown: Preview | null = null;
  return () => {
    badge.hidden = state.unread === 0;
    badge.textContent = state.unread > 99 ? "99+" : String(state.unread);
    preview.setOpen(state.open);
    if (state.preview !== shown) preview.set((shown = state.preview));
  };
};

// Handed to the loader through the script element that loaded this file.
document.currentScript?.dispatchEvent(new CustomEvent<DrawNews>(TAG, { detail: drawNews }));
