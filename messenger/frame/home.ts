import { messageCards } from "./auto-message-view";
import { fill, h, refill, when } from "./dom";
import type { FrameContext } from "./context";
import type { Conversation } from "./types";

/**
 * The home view: the messages sent to the visitor, greeting, team intro, reply time, "New conversation" and the
 * recent conversations.
 */
export function renderHome(ctx: FrameContext, main: HTMLElement, foot: HTMLElement) {
  const m = ctx.messenger;
  const recent = ctx.store.recent();
  refill(
    main,
    messageCards(ctx),
    h(
      "section",
      { class: "card intro" },
      h("h2", null, m.greeting),
      h("p", null, m.team_intro),
      h("p", { class: "muted" }, ctx.offline ? m.offline_text : m.reply_time_text),
      h(
        "button",
        {
          type: "button",
          class: "primary",
          "data-key": "new",
          onclick: () => void ctx.newConversation(),
        },
        "New conversation",
      ),
    ),
    ctx.offline && !ctx.visitor.email ? emailForm(ctx) : null,
    recent.length
      ? h(
          "section",
          { class: "card" },
          h("h2", { id: "recent-title" }, "Recent conversations"),
          h(
            "ul",
            { class: "recent", "aria-labelledby": "recent-title" },
            recent.slice(0, 10).map((c) => item(ctx, c)),
          ),
        )
      : null,
  );
  fill(foot);
}

function item(ctx: FrameContext, c: Conversation) {
  const last = c.last_part;
  const who = !last ? "" : last.from.kind === "admin" ? `${last.from.name}: ` : "You: ";
  const text = last ? who + (last.body || (last.attachments.length ? "Attachment" : "")) : "New conversation";
  return h(
    "li",
    null,
    h(
      "button",
      {
        type: "button",
        class: "conv",
        "data-key": `conv-${c.id}`,
        onclick: () => ctx.go({ name: "thread", conversation: c.id }),
        "aria-label": `${text}${c.unread ? `, ${c.unread} unread` : ""}`,
      },
      h("span", { class: "snippet" }, text),
      h("span", { class: "muted small" }, when(c.last_update)),
      c.unread ? h("span", { class: "count", "aria-hidden": "true" }, c.unread) : null,
    ),
  );
}

/** The offline prompt: where the team can answer by email. */
export function emailForm(ctx: FrameContext): HTMLElement {
  const input = h("input", {
    type: "email",
    required: true,
    autocomplete: "email",
    placeholder: "you@example.com",
    "aria-label": "Your email",
    "data-key": "email",
  });
  const status = h("p", { class: "muted small", role: "status" });
  const form = h(
    "form",
    {
      class: "card email",
      onsubmit: (e: Event) => {
        e.preventDefault();
        if (!input.checkValidity()) return void (status.textContent = "Please enter a valid email.");
        status.textContent = "Saving…";
        ctx.saveEmail(input.value.trim()).then(
          () => fill(form, h("p", null, `Thanks! We will reply to ${input.value.trim()}.`)),
          () => (status.textContent = "That did not work, please try again."),
        );
      },
    },
    h("label", null, ctx.messenger.email_prompt, input),
    h("button", { type: "submit", class: "primary", "data-key": "email-save" }, "Save"),
    status,
  );
  return form;
}
