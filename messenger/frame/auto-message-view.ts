import { composer } from "./composer";
import type { FrameContext, Messages } from "./context";
import { fill, h, when } from "./dom";
import { authorOf } from "./author";
import type { AutoMessage } from "./types";

/**
 * The chat messages and pop-ups sent to the visitor (auto-messages.ts) as the messenger shows them: cards on top of
 * home, and a message's own view. A chat message reads like an operator's first message, with a composer to answer
 * it; a pop-up is a card with its title, text, button and email field. Each card has a × that hides it.
 */

/**
 * What the cards use of the frame's controller: the frame's preview mode (preview-mode.ts) draws them with no
 * visitor, API or socket behind it.
 */
export type CardContext = Pick<FrameContext, "go"> & {
  messages: Pick<Messages, "shown" | "isThanked" | "reply" | "click" | "dismiss">;
};

/** Home's cards, newest first. */
export function messageCards(ctx: CardContext): HTMLElement[] {
  return ctx.messages.shown().map((m) => (m.kind === "chat" ? chatCard(ctx, m) : popupCard(ctx, m)));
}

/** A message's own view: a chat message with a composer (the answer starts a conversation), or a pop-up's card. */
export function renderMessage(ctx: FrameContext, main: HTMLElement, foot: HTMLElement, send: number) {
  const m = ctx.messages.get(send);
  if (!m || m.kind === "popup") {
    fill(main, m ? popupCard(ctx, m) : h("p", { class: "empty muted" }, "This message is no longer here."));
    fill(foot);
    return;
  }
  fill(
    main,
    h(
      "ol",
      { class: "parts", "aria-label": "Messages" },
      h(
        "li",
        { class: "part theirs" },
        m.sender ? authorOf(m.sender) : null,
        h("div", { class: "bubble" }, m.body),
        h("span", { class: "muted small time" }, when(m.created)),
      ),
    ),
  );
  const view = { conversation: null, update: () => undefined };
  fill(
    foot,
    composer(ctx, view, (body) => ctx.messages.reply(m.send, body)),
  );
}

function chatCard(ctx: CardContext, m: AutoMessage): HTMLElement {
  const id = `message-${m.send}`;
  return h(
    "section",
    { class: "card message", "aria-labelledby": id },
    h(
      "div",
      { class: "message-head" },
      h("div", { id }, m.sender ? authorOf(m.sender) : "Message"),
      dismiss(ctx, m),
    ),
    h("p", { class: "message-body" }, m.body),
    h(
      "button",
      {
        type: "button",
        class: "primary",
        "data-key": `reply-${m.send}`,
        onclick: () => ctx.go({ name: "message", send: m.send }),
      },
      "Reply",
    ),
  );
}

function popupCard(ctx: CardContext, m: AutoMessage): HTMLElement {
  const id = `message-${m.send}`;
  const head = h("div", { class: "message-head" }, h("h2", { id }, m.title ?? "Message"), dismiss(ctx, m));
  const thanks = () => h("p", { role: "status" }, "Thanks! We will be in touch.");
  if (ctx.messages.isThanked(m.send))
    return h("section", { class: "card message", "aria-labelledby": id }, head, thanks());
  const status = h("p", { class: "small", role: "status" });
  const card = h(
    "section",
    { class: "card message", "aria-labelledby": id },
    head,
    h("p", { class: "message-body" }, m.body),
    m.email_field ? emailField(ctx, m, status, () => fill(card, head, thanks())) : null,
    action(ctx, m, status),
    status,
  );
  return card;
}

/** The pop-up's button: a link opens in a new tab (and counts as a click), a reply answers with its label. */
function action(ctx: CardContext, m: AutoMessage, status: HTMLElement) {
  const b = m.button;
  if (b?.action === "link" && b.url && /^https?:\/\//i.test(b.url))
    return h(
      "a",
      {
        class: "primary",
        href: b.url,
        target: "_blank",
        rel: "noopener",
        "data-key": `link-${m.send}`,
        onclick: () => void ctx.messages.click(m.send).catch(() => undefined),
      },
      b.label,
    );
  if (b?.action !== "reply") return null;
  const button = h(
    "button",
    {
      type: "button",
      class: "primary",
      "data-key": `answer-${m.send}`,
      onclick: () => {
        button.disabled = true;
        ctx.messages.reply(m.send, b.label).catch(() => {
          button.disabled = false;
          status.textContent = "That did not work, please try again.";
        });
      },
    },
    b.label,
  );
  return button;
}

function emailField(ctx: CardContext, m: AutoMessage, status: HTMLElement, done: () => void) {
  const input = h("input", {
    type: "email",
    required: true,
    autocomplete: "email",
    placeholder: "you@example.com",
    "data-key": `email-${m.send}`,
  });
  return h(
    "form",
    {
      class: "message-email",
      onsubmit: (e: Event) => {
        e.preventDefault();
        if (!input.checkValidity()) return void (status.textContent = "Please enter a valid email.");
        status.textContent = "Saving…";
        ctx.messages.click(m.send, input.value.trim()).then(done, () => {
          status.textContent = "That did not work, please try again.";
        });
      },
    },
    h("label", null, "Your email", input),
    h("button", { type: "submit", class: "primary", "data-key": `email-send-${m.send}` }, "Send"),
  );
}

/** Hides the message for this page session; focus goes to the messenger's content. */
function dismiss(ctx: CardContext, m: AutoMessage) {
  return h(
    "button",
    {
      type: "button",
      class: "icon dismiss",
      "aria-label": "Close this message",
      title: "Close",
      "data-key": `dismiss-${m.send}`,
      onclick: () => {
        ctx.messages.dismiss(m.send);
        document.getElementById("main")?.focus();
      },
    },
    "×",
  );
}
