"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { queryKeys } from "../query-keys";
import type { TypingState } from "./realtime";

export const TYPING_SHOWN_MS = 10_000;

/** Whether the visitor is typing: for 10 s after each typing event the socket brings (realtime.ts). */
export function useVisitorTyping(conversationId: string | null): boolean {
  const { data } = useQuery<TypingState | null>({
    queryKey: queryKeys.inbox.typing(conversationId ?? ""),
    queryFn: () => null,
    enabled: false,
    initialData: null,
  });
  const [now, setNow] = useState(() => Date.now());
  const at = data?.at ?? 0;
  useEffect(() => {
    if (!at) return;
    setNow(Date.now());
    const left = at + TYPING_SHOWN_MS - Date.now();
    if (left <= 0) return;
    const t = setTimeout(() => setNow(Date.now()), left + 50);
    return () => clearTimeout(t);
  }, [at]);
  return at > 0 && now - at < TYPING_SHOWN_MS;
}
