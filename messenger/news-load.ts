import { TAG, type Preview } from "./protocol";

/**
 * The launcher's news, its unread badge and the preview of a new message, comes in a script of its own,
 * /messenger/news.js (messenger/news.ts), loaded the first time there is any: most page views have none, and its
 * drawing and styles would be a third of the loader (docs/decisions.md, "Messenger"). The chunk hands its drawing
 * to the script element that loaded it, as an event named TAG, so it needs no global of its own on the host page.
 * The loader and the chunk share only NewsState and DrawNews: keep them stable, as a loader cached before a
 * deployment may load the chunk after it.
 */
export interface NewsState {
  open: boolean;
  unread: number;
  /** What the frame last asked to preview; null: nothing. */
  preview: Preview | null;
}

/**
 * What news.js hands over: draws into the launcher's Shadow DOM (`wrap` holds the launcher `button`) and returns
 * its render, run after every change of the state.
 */
export type DrawNews = (
  wrap: HTMLElement,
  button: HTMLButtonElement,
  state: NewsState,
  act: (send: number, action: "open" | "dismiss") => void,
) => () => void;

/**
 * The render to run after every change of the state: the chunk's once it has come, until then a load of the chunk
 * when there is news to show. A chunk that fails to load (offline, a host CSP that lists only /messenger.js) is
 * tried again on the next change; the launcher's label counts the unread meanwhile.
 */
export function newsRenderer(src: string, ...args: Parameters<DrawNews>): () => void {
  const state = args[2];
  let render: (() => void) | undefined;
  let loading = false;
  return () => {
    if (render) render();
    else if ((state.unread || state.preview) && !loading) {
      loading = true;
      const script = document.createElement("script");
      script.src = src;
      script.addEventListener(TAG, (e) => (render = (e as CustomEvent<DrawNews>).detail(...args))());
      // Run or not, the element has done its work.
      script.onload = script.onerror = () => {
        script.remove();
        loading = !!render;
      };
      document.body.append(script);
    }
  };
}
