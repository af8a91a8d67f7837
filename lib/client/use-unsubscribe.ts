"use client";

import { useMutation } from "@tanstack/react-query";
import { api } from "./api";

/**
 * Unsubscribes the person an emailed unsubscribe link names (`token`, the link's `t`; `send`, its `s`, names the
 * email message it came with), without a login. Always a POST: mail scanners open every link of an email, so a GET
 * must never unsubscribe.
 */
export function useUnsubscribe() {
  return useMutation({
    mutationFn: async ({ token, send }: { token: string; send: string }) => {
      await api.post(
        "/api/email/unsubscribe",
        new URLSearchParams(send ? { t: token, s: send } : { t: token }),
      );
    },
  });
}
