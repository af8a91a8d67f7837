import { parsePreview, type FromPreview, type PreviewDraw } from "../preview-protocol";
import { TAG } from "../protocol";
import { messageCards, type CardContext } from "./auto-message-view";
import { fill } from "./dom";
import type { AutoMessage } from "./types";

/**
 * The frame in preview mode (frame.html?preview=1, messenger/preview-protocol.ts), for the panel's Messages editor:
 * it draws the chat message or pop-up the editor posts with the same code the visitor's messenger uses
 * (auto-message-view.ts), so the preview is the real rendering. No key, visitor, API or socket: nothing in it acts.
 */
export function startPreview() {
  // Inert: the panel's Tab goes past the frame rather than into controls that do nothing, and no click lands
  // (a pop-up's link would open the operator's URL). The capturing handlers are for a browser without inert.
  document.body.inert = true;
  for (const type of ["click", "submit"]) document.addEventListener(type, (e) => e.preventDefault(), true);
  addEventListener("message", (e: MessageEvent) => {
    // The editor is a panel page, our origin: nothing else may draw in it.
    if (e.origin !== location.origin || e.source !== parent) return;
    const draw = parsePreview(e.data);
    if (draw) show(draw);
  });
  const ready: FromPreview = { tag: TAG, type: "preview-ready" };
  if (parent !== window) parent.postMessage(ready, location.origin);
}

function show({ message, accent }: PreviewDraw) {
  const root = document.documentElement.style;
  if (accent) root.setProperty("--accent", accent);
  else root.removeProperty("--accent");
  const m: AutoMessage = { ...message, send: 0, message: 0, created: Math.floor(Date.now() / 1000) };
  const main = document.getElementById("main");
  if (main) fill(main, messageCards(still(m)));
}

/** The cards' controller for one message that is never sent: shown, never thanked, its actions do nothing. */
function still(m: AutoMessage): CardContext {
  const nothing = () => Promise.resolve();
  return {
    go: () => undefined,
    messages: {
      shown: () => [m],
      isThanked: () => false,
      reply: nothing,
      click: nothing,
      dismiss: () => undefined,
    },
  };
}
