import { ApiError, type Api } from "./api";
import { h } from "./dom";
import type { FrameContext } from "./context";
import type { Store } from "./store";
import type { Rating, VisitorRating } from "./types";

const LABELS = ["", "Very bad", "Bad", "OK", "Good", "Excellent"];
const stars = (n: number) => "★".repeat(n) + "☆".repeat(5 - n);
export const frameRating = (r: VisitorRating): Rating => ({ ...r, conversation: Number(r.conversation) });

/** The conversation's rating, asked or given (null: never asked), into the store. */
export async function loadRating(api: Api, store: Store, id: number): Promise<void> {
  const r = await api.call<VisitorRating | null>("GET", `/conversations/${id}/rating`).catch(() => null);
  if (r) store.setRating(frameRating(r));
}

/**
 * The card under a closed conversation an operator asked about: five scores, an optional comment and Send; once
 * rated (here, in another tab or by the email's link), the score given and thanks. Rated once: the server refuses
 * a second rating, and the card then shows the one it has.
 */
export function ratingCard(ctx: FrameContext, r: Rating): HTMLElement {
  if (r.rating !== null)
    return h(
      "section",
      { class: "card rating-card", "aria-label": "Your rating", role: "status" },
      h("p", { class: "stars given", "aria-label": `${r.rating} out of 5` }, stars(r.rating)),
      h("p", null, `You rated this conversation ${LABELS[r.rating]}. Thank you!`),
      r.comment ? h("p", { class: "muted small" }, `“${r.comment}”`) : null,
    );
  let chosen = 0;
  const buttons = [1, 2, 3, 4, 5].map((n) =>
    h(
      "button",
      {
        type: "button",
        class: "star",
        "aria-pressed": "false",
        "aria-label": `${n} out of 5: ${LABELS[n]}`,
        onclick: () => {
          chosen = n;
          buttons.forEach((b, i) => {
            b.setAttribute("aria-pressed", String(i + 1 === n));
            b.textContent = i < n ? "★" : "☆";
          });
          status.textContent = "";
        },
      },
      "☆",
    ),
  );
  const comment = h("textarea", {
    class: "ask-input",
    rows: 2,
    maxLength: 2000,
    placeholder: "Anything to add? (optional)",
    "aria-label": "Comment",
  });
  const send = h("button", { type: "submit", class: "primary" }, "Send rating");
  const status = h("p", { class: "error small", role: "alert" });
  return h(
    "form",
    {
      class: "card rating-card",
      "aria-label": "Rate this conversation",
      onsubmit: (e: Event) => {
        e.preventDefault();
        if (!chosen) return void (status.textContent = "Please pick a score first.");
        send.disabled = true;
        const body = { rating: chosen, ...(comment.value.trim() ? { comment: comment.value.trim() } : {}) };
        ctx.api
          .call<VisitorRating>("POST", `/conversations/${r.conversation}/rating`, body)
          .then((given) => ctx.store.setRating(frameRating(given)))
          .catch((err: unknown) => {
            send.disabled = false;
            status.textContent =
              err instanceof ApiError && err.errorName === "ValidationError"
                ? "This conversation was already rated."
                : "That did not send, please try again.";
            if (err instanceof ApiError && err.status === 400)
              void loadRating(ctx.api, ctx.store, r.conversation);
          });
      },
    },
    h("h2", null, "How did we do?"),
    h("div", { class: "stars", role: "group", "aria-label": "Your score" }, buttons),
    comment,
    send,
    status,
  );
}
