import { composer } from "./composer";
import { fill, h, when } from "./dom";
import type { FrameContext } from "./context";
import { emailForm } from "./home";
import type { Attachment, Part } from "./types";
import type { ThreadView } from "./thread-view";
import { authorOf } from "./author";
import { ratingCard } from "./rating";

/**
 * A conversation: operators' messages left with their name and avatar, the visitor's own right, images inline,
 * other files as links, quick-reply buttons, "typing…", and under the last own message whether it was seen. The
 * composer is built once per view, so a re-render of the messages keeps what is being typed and the focus.
 */
export function openThread(
  ctx: FrameContext,
  main: HTMLElement,
  foot: HTMLElement,
  conversation: number | null,
): ThreadView {
  const list = h("ol", { class: "parts", "aria-label": "Messages" });
  const typing = h("p", { class: "typing muted small" });
  // Outside the list, which is redrawn on every change: what the visitor types in it and its focus stay.
  const asking = h("div", { class: "asking" });
  // The rating card (rating.ts): redrawn only when the rating changes, so a chosen score and comment stay.
  const rating = h("div", { class: "rating" });
  const offline = ctx.offline && !ctx.visitor.email ? emailForm(ctx) : null;
  fill(
    main,
    offline ? h("p", { class: "notice" }, ctx.messenger.offline_text) : null,
    offline,
    list,
    asking,
    rating,
    typing,
  );
  const view: ThreadView = {
    conversation,
    update() {
      const atBottom = main.scrollHeight - main.scrollTop - main.clientHeight < 40;
      const parts = view.conversation === null ? [] : ctx.store.partsOf(view.conversation);
      fill(list, parts.length ? parts.map((p, i) => bubble(ctx, p, parts, i)) : empty(ctx));
      const last = parts.at(-1);
      const ask = last?.from.kind === "admin" ? last.ask : undefined;
      if (!last || !ask) {
        fill(asking);
        delete asking.dataset.part;
      } else if (asking.dataset.part !== String(last.id)) {
        fill(asking, askForm(ctx, last, ask));
        asking.dataset.part = String(last.id);
      }
      const r = view.conversation === null ? undefined : ctx.store.ratings.get(view.conversation);
      const rated = r ? `${r.conversation}:${r.rating ?? ""}` : "";
      if (rating.dataset.key !== rated) {
        fill(rating, r ? ratingCard(ctx, r) : null);
        rating.dataset.key = rated;
      }
      const t = view.conversation === null ? undefined : ctx.typing.get(view.conversation);
      typing.textContent = t && t.until > Date.now() ? `${t.name} is typing…` : "";
      if (atBottom || !main.dataset.seen) main.scrollTop = main.scrollHeight;
      main.dataset.seen = "1";
    },
  };
  fill(foot, composer(ctx, view));
  delete main.dataset.seen;
  view.update();
  return view;
}

function empty(ctx: FrameContext) {
  return h(
    "li",
    { class: "empty muted" },
    ctx.offline ? "Leave us a message." : `${ctx.messenger.team_intro} ${ctx.messenger.reply_time_text}`,
  );
}

function bubble(ctx: FrameContext, p: Part, parts: Part[], i: number) {
  const mine = p.from.kind === "user";
  const prev = parts[i - 1];
  const first =
    !prev ||
    prev.from.kind !== p.from.kind ||
    (prev.from.kind === "admin" && prev.from.id !== (p.from as { id: number }).id);
  const lastMine = mine && !parts.slice(i + 1).some((q) => q.from.kind === "user");
  const isLast = i === parts.length - 1;
  return h(
    "li",
    { class: mine ? "part mine" : "part theirs" },
    !mine && first ? author(p) : null,
    p.body ? h("div", { class: "bubble" }, p.body) : null,
    p.attachments.map(attachment),
    p.actions?.length ? actions(ctx, p, isLast) : null,
    h("span", { class: "muted small time" }, when(p.created)),
    lastMine ? receipt(p) : null,
  );
}

function author(p: Part) {
  return p.from.kind === "admin" ? authorOf(p.from) : null;
}

function attachment(a: Attachment) {
  if (a.image)
    return h(
      "a",
      { href: a.url, target: "_blank", rel: "noopener", class: "image" },
      h("img", { src: a.url, alt: a.name, width: a.width, height: a.height, loading: "lazy" }),
    );
  const kb =
    a.size >= 1024 * 1024
      ? `${(a.size / 1048576).toFixed(1)} MB`
      : `${Math.max(1, Math.round(a.size / 1024))} KB`;
  return h("a", { href: a.url, target: "_blank", rel: "noopener", class: "file" }, `${a.name} (${kb})`);
}

/** Buttons while unanswered (on the last message only); the chosen one after. */
function actions(ctx: FrameContext, p: Part, isLast: boolean) {
  const chosen = p.chosen_action;
  const all = p.actions ?? [];
  if (chosen == null && !isLast) return null;
  return h(
    "div",
    { class: "actions", role: "group", "aria-label": "Quick replies" },
    all.map((a, k) =>
      chosen != null && chosen !== k
        ? null
        : h(
            "button",
            {
              type: "button",
              class: chosen === k ? "chip chosen" : "chip",
              disabled: chosen != null,
              "aria-pressed": chosen === k ? "true" : undefined,
              onclick: (e: Event) => {
                (e.currentTarget as HTMLButtonElement).disabled = true;
                void ctx.quickReply(p, k);
              },
            },
            a.body,
          ),
    ),
  );
}

const ASKED = {
  email: {
    type: "email",
    autocomplete: "email",
    label: "Your email address",
    placeholder: "you@example.com",
  },
  phone: { type: "tel", autocomplete: "tel", label: "Your phone number", placeholder: "+1 555 0100" },
  text: { type: "text", autocomplete: "off", label: "Your answer", placeholder: "" },
} as const;

/**
 * A bot's question, while it is the last message: a field of the kind it asks for, sent as the visitor's answer.
 * The bot checks the answer again and asks once more if it does not do.
 */
function askForm(ctx: FrameContext, p: Part, kind: NonNullable<Part["ask"]>) {
  const a = ASKED[kind];
  const input = h("input", {
    type: a.type,
    required: true,
    maxLength: 1000,
    autocomplete: a.autocomplete,
    placeholder: a.placeholder,
    "aria-label": a.label,
    class: "ask-input",
  });
  const status = h("p", { class: "error small", role: "alert" });
  const form = h(
    "form",
    {
      class: "ask",
      onsubmit: (e: Event) => {
        e.preventDefault();
        const value = input.value.trim();
        if (!value || !input.checkValidity())
          return void (status.textContent =
            kind === "email" ? "Please enter a valid email." : "Please answer first.");
        status.textContent = "";
        input.disabled = true;
        ctx.send(p.conversation, value).catch(() => {
          input.disabled = false;
          status.textContent = "That did not send, please try again.";
        });
      },
    },
    input,
    // Named apart from the composer's Send.
    h("button", { type: "submit", class: "primary", "aria-label": `Send ${a.label.toLowerCase()}` }, "Send"),
    status,
  );
  // The question just came: its field takes the typing from the composer.
  queueMicrotask(() => {
    const at = document.activeElement;
    if (at === document.body || at?.tagName === "TEXTAREA" || at?.classList.contains("chip")) input.focus();
  });
  return form;
}

function receipt(p: Part) {
  if (p.failed)
    return h(
      "span",
      { class: "receipt error", role: "alert" },
      "Not sent. Check your connection and send again.",
    );
  const text = typeof p.id === "string" ? "Sending…" : p.read ? "Seen" : "Sent";
  return h("span", { class: "receipt muted small" }, text);
}
