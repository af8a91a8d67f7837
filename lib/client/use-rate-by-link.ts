"use client";

import { useMutation } from "@tanstack/react-query";
import type { VisitorRating } from "@/lib/csat/schemas";
import { api } from "./api";

/**
 * Records the rating an emailed rating link names (`token`, the link's `t`: the conversation and the score), and
 * with `comment` the page's second step. Posted by the page's script, so a mail scanner fetching the link rates
 * nothing.
 */
export function useRateByLink() {
  return useMutation({
    mutationFn: ({ token, comment }: { token: string; comment?: string }) =>
      api.post<VisitorRating>(
        "/api/csat/rate",
        new URLSearchParams(comment ? { t: token, comment } : { t: token }),
      ),
  });
}
