import type { Preview } from "./protocol";

/**
 * The preview of a chat message or pop-up above the closed launcher, in the launcher's Shadow DOM, drawn by the news
 * chunk (messenger/news.ts, loaded when there is news): who it is from and its text; the whole preview opens the
 * messenger on the message, × hides it. Its text is set as text, never as HTML. A visually hidden live region says
 * that a message came.
 */
export const PREVIEW_STYLES = `
.v{position:fixed;bottom:88px;right:20px;z-index:2147483647;display:flex;align-items:flex-start;gap:4px;
width:max-content;max-width:min(300px,calc(100vw - 40px));box-sizing:border-box;padding:4px;border-radius:14px;
background:#fff;color:#111827;box-shadow:0 6px 24px rgba(0,0,0,.22);font:14px/1.4 system-ui,sans-serif}
.v .o{all:unset;box-sizing:border-box;display:grid;grid-template-columns:auto 1fr;gap:2px 8px;min-width:0;
padding:8px 4px 8px 10px;border-radius:10px;cursor:pointer}
.v .o.n{grid-template-columns:1fr}
.v .o:focus-visible,.v .x:focus-visible{outline:3px solid var(--accent,#2563eb);outline-offset:1px}
.v .a{grid-row:span 2;width:28px;height:28px;border-radius:50%;object-fit:cover;background:#c7d2fe;color:#1e1b4b;
display:flex;align-items:center;justify-content:center;font-weight:600;font-size:12px}
.v .f{font-weight:600;font-size:12px;color:#4b5563;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.v .t{overflow:hidden;display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow-wrap:anywhere}
.v .x{all:unset;box-sizing:border-box;flex:none;width:28px;height:28px;border-radius:8px;text-align:center;
font:20px/28px system-ui,sans-serif;color:#6b7280;cursor:pointer}
.v .x:hover{background:#f3f4f6}
.left .v{right:auto;left:20px}
.s{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;

export interface PreviewBox {
  set(p: Preview | null): void;
  /** Hidden while the messenger is open: the message is inside. */
  setOpen(open: boolean): void;
}

export function drawPreview(
  wrap: HTMLElement,
  act: (send: number, action: "open" | "dismiss") => void,
  afterDismiss: () => void,
): PreviewBox {
  const box = document.createElement("div");
  box.className = "v";
  box.hidden = true;
  const open = document.createElement("button");
  open.type = "button";
  open.className = "o";
  const close = document.createElement("button");
  close.type = "button";
  close.className = "x";
  close.textContent = "×";
  close.setAttribute("aria-label", "Dismiss message");
  close.title = "Dismiss";
  box.append(open, close);
  const live = document.createElement("span");
  live.className = "s";
  live.setAttribute("role", "status");
  wrap.append(box, live);

  let shown: Preview | null = null;
  let isOpen = false;
  const show = () => (box.hidden = !shown || isOpen);
  open.addEventListener("click", () => shown && act(shown.send, "open"));
  close.addEventListener("click", () => {
    if (!shown) return;
    act(shown.send, "dismiss");
    shown = null;
    show();
    afterDismiss();
  });

  return {
    set(p) {
      const fresh = p !== null && p.send !== shown?.send;
      shown = p;
      if (p) {
        const from = p.kind === "chat" ? (p.sender?.name ?? "") : (p.title ?? "");
        // An operator's avatar (their initial without one); a pop-up has none.
        const avatar = !p.sender
          ? null
          : p.sender.avatar
            ? Object.assign(document.createElement("img"), { src: p.sender.avatar, alt: "" })
            : Object.assign(document.createElement("span"), { textContent: from.charAt(0).toUpperCase() });
        avatar?.classList.add("a");
        avatar?.setAttribute("aria-hidden", "true");
        open.classList.toggle("n", !avatar);
        const name = document.createElement("span");
        name.className = "f";
        name.textContent = from;
        const text = document.createElement("span");
        text.className = "t";
        text.textContent = p.body;
        open.replaceChildren(...(avatar ? [avatar] : []), name, text);
        open.setAttribute("aria-label", `${from ? `${from}: ` : ""}${p.body}. Open the message`);
        if (fresh) live.textContent = `New message${from ? ` from ${from}` : ""}: ${p.body}`;
      }
      show();
    },
    setOpen(o) {
      isOpen = o;
      show();
    },
  };
}
