"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "./api";
import { usersPath, type UserCard } from "./leads-types";
import { queryKeys } from "./query-keys";

/** Everything the user card shows in one read: props of every kind, presence, events, segments, notes, tags. */
export const USER_CARD_SWITCHES = {
  props: true,
  props_custom: true,
  props_events: true,
  presence_details: true,
  events: true,
  segments: true,
  notes: true,
  tags: true,
  email_status: true,
  props_sources: true,
} as const;

export function useUser(userId: string) {
  return useQuery({
    queryKey: queryKeys.users.detail(userId),
    queryFn: ({ signal }) => api.get<UserCard>(usersPath(userId), { query: USER_CARD_SWITCHES, signal }),
  });
}
