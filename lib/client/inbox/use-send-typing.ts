"use client";

import { useCallback, useRef } from "react";
import { api } from "../api";
import { conversationPath } from "./paths";

const EVERY_MS = 3000;

/**
 * Tells the visitor the operator is typing a reply (a note's typing says `note`, and reaches only colleagues): at
 * most one event every few seconds while they type.
 */
export function useSendTyping(conversationId: string | null) {
  const last = useRef(0);
  return useCallback(
    (body: string, note = false) => {
      const now = Date.now();
      if (!conversationId || now - last.current < EVERY_MS) return;
      last.current = now;
      api
        .post(`${conversationPath(conversationId)}/settyping`, { body, ...(note ? { note: true } : {}) })
        .catch(() => {
          // Typing is a hint: a lost one needs no message.
        });
    },
    [conversationId],
  );
}
