"use client";

import { useQuery } from "@tanstack/react-query";
import type { ConversationRating } from "@/lib/csat/schemas";
import { api } from "./api";
import { queryKeys } from "./query-keys";
import { appPath } from "./settings-types";

/** A user's latest ratings, newest first (the lead card). */
export function useUserRatings(appId: string, userId: string) {
  return useQuery({
    queryKey: queryKeys.csat.user(appId, userId),
    queryFn: ({ signal }) =>
      api.get<ConversationRating[]>(`${appPath(appId)}/users/${userId}/ratings`, { signal }),
  });
}
