"use client";

import Link from "next/link";
import { Stars } from "@/components/csat/stars";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Time } from "@/components/ui/time";
import { UserText } from "@/components/ui/user-text";
import { DEFAULT_FILTER, inboxSearch } from "@/lib/client/inbox/filters";
import { useUserRatings } from "@/lib/client/use-user-ratings";

/** The user's latest conversation ratings (CSAT), each linking to its conversation; nothing when there are none. */
export function CardRatings({ appId, userId }: { appId: string; userId: string }) {
  const ratings = useUserRatings(appId, userId);
  if (ratings.isError) return <ErrorAlert error={ratings.error} title="Could not load the ratings" />;
  if (!ratings.data?.length) return null;
  return (
    <section
      aria-labelledby="ratings-title"
      className="space-y-2 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id="ratings-title" className="text-sm font-semibold text-slate-900">
        Ratings
      </h2>
      <ul className="space-y-2" aria-label="Latest ratings">
        {ratings.data.map((r) => (
          <li key={String(r.conversation)} className="text-sm" data-testid="card-rating">
            <Link
              className="text-brand-700 underline-offset-2 hover:underline"
              href={`/inbox${inboxSearch({ ...DEFAULT_FILTER, tab: "closed", selected: String(r.conversation) })}`}
            >
              <Stars rating={r.rating ?? 0} />
            </Link>{" "}
            <Time seconds={r.rated} short className="text-xs text-slate-500" />
            {r.comment && (
              <p className="text-slate-700">
                <UserText>{r.comment}</UserText>
              </p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
