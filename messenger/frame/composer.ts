import { h } from "./dom";
import type { FrameContext } from "./context";
import type { ThreadView } from "./thread";

/**
 * The composer: Enter sends, Shift+Enter is a new line; the attach button sends a file at once (with the text
 * typed so far) and shows the upload's progress; typing is reported (throttled by the controller).
 */
export function composer(ctx: FrameContext, view: ThreadView): HTMLElement {
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
      await ctx.send(view.conversation, body, attach, (f) => (progress.value = f));
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
    if (view.conversation !== null && text.value.trim()) ctx.typed(view.conversation, text.value);
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
      h(
        "button",
        {
          type: "button",
          class: "icon",
          "aria-label": "Attach a file",
          title: "Attach a file",
          onclick: () => file.click(),
        },
        "📎",
      ),
      h("button", { type: "submit", class: "icon send", "aria-label": "Send", title: "Send" }, "➤"),
      file,
    ),
    progress,
    error,
  );
}
