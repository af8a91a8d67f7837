"use client";

import { Time } from "@/components/ui/time";
import { UserText } from "@/components/ui/user-text";
import type { ConversationRating } from "@/lib/csat/schemas";
import { Stars } from "./stars";

const CHANNEL: Record<string, string> = { messenger: "in the messenger", email: "by email" };

/** The rating in the Inbox's thread, as a system line at its time: asked, or the visitor's score and comment. */
export function RatingLine({ rating: r }: { rating: ConversationRating }) {
  if (r.rating === null || r.rated === null) {
    return (
      <li className="my-2 text-center text-xs text-slate-500" data-testid="rating-asked">
        Visitor asked to rate the conversation · <Time seconds={r.requested} short />
      </li>
    );
  }
  return (
    <li className="my-2 flex flex-col items-center text-xs text-slate-600" data-testid="rating-given">
      <span>
        Rated <Stars rating={r.rating} className="text-sm" /> by the visitor{" "}
        {r.channel ? CHANNEL[r.channel] : ""} · <Time seconds={r.rated} short />
      </span>
      {r.comment && (
        <q className="mt-1 max-w-md rounded-lg bg-amber-50 px-3 py-1.5 text-sm text-slate-800">
          <UserText>{r.comment}</UserText>
        </q>
      )}
    </li>
  );
}
