import { h } from "./dom";
import type { FrameContext } from "./context";
import type { ThreadView } from "./thread-view";

/**
 * The composer: Enter sends, Shift+Enter is a new line; the attach button sends a file at once (with the text
 * typed so far) and shows the upload's progress; typing is reported (throttled by the controller, a stop when emptied).
 */
// Drawn, not emoji: a system without an emoji font would show empty boxes.
const CLIP =
  "M16.5 6.5 8.8 14.2a2 2 0 0 0 2.8 2.8l7.4-7.4a4 4 0 0 0-5.6-5.6l-7.6 7.6a6 6 0 0 0 8.5 8.5l6.4-6.4";
const SEND = "M3 20 21 12 3 4l2.5 8L3 20zm2.5-8H13";

function icon(d: string) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", d);
  svg.append(path);
  return svg;
}

/** `answer`: the text goes there instead (a chat message's answer: text only, no attachment). */
export function composer(
  ctx: FrameContext,
  view: ThreadView,
  answer?: (body: string) => Promise<void>,
): HTMLElement {
  const text = h("textarea", {
    rows: 1,
    placeholder: "Write a message…",
    "aria-label": "Message",
    maxLength: 10000,
  });
  const file = h("input", { type: "file", class: "sr", tabIndex: -1, "aria-hidden": "true" });
  const progress = h("progress", { max: 1, value: 0, hidden: true, "aria-label": "Upload progress" });
  const error = h("p", { class: "error small", role: "alert" });
  let busy = false;

  const submit = async (attach?: File) => {
    const body = text.value.trim();
    if (busy || (!body && !attach)) return;
    busy = true;
    error.textContent = "";
    text.value = "";
    if (attach) progress.hidden = false;
    try {
      if (answer) await answer(body);
      else await ctx.send(view.conversation, body, attach, (f) => (progress.value = f));
    } catch {
      if (!text.value) text.value = body;
      error.textContent = attach ? "The file could not be sent." : "The message could not be sent.";
    } finally {
      busy = false;
      progress.hidden = true;
      progress.value = 0;
      file.value = "";
    }
  };

  text.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void submit();
    }
  });
  text.addEventListener("input", () => {
    // Grows with its text, up to the CSS max-height.
    text.style.height = "auto";
    text.style.height = `${text.scrollHeight}px`;
    // Emptied, it tells the operators the visitor stopped.
    if (view.conversation !== null) ctx.typed(view.conversation, text.value);
  });
  file.addEventListener("change", () => {
    const f = file.files?.[0];
    if (f) void submit(f);
  });

  return h(
    "form",
    {
      class: "composer",
      onsubmit: (e: Event) => {
        e.preventDefault();
        void submit();
      },
    },
    h(
      "div",
      { class: "row" },
      text,
      answer
        ? null
        : h(
            "button",
            {
              type: "button",
              class: "icon",
              "aria-label": "Attach a file",
              title: "Attach a file",
              onclick: () => file.click(),
            },
            icon(CLIP),
          ),
      h("button", { type: "submit", class: "icon send", "aria-label": "Send", title: "Send" }, icon(SEND)),
      answer ? null : file,
    ),
    progress,
    error,
  );
}
