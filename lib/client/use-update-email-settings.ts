"use client";

import { api } from "./api";
import { useOptimisticMutation } from "./optimistic";
import { queryKeys } from "./query-keys";
import type { EmailSettings } from "./settings-types";
import { emailPath } from "./use-email-settings";

/**
 * The parameters of POST /apps/{id}/email/settings: only those given change; an empty sender name or local
 * part goes back to the default.
 */
export type EmailSettingsUpdate = Partial<
  Pick<
    EmailSettings,
    | "sender_name"
    | "address_local"
    | "continuity"
    | "continuity_delay"
    | "operator_emails"
    | "operator_delay"
    | "transcripts"
  >
>;

/**
 * The cached settings as the server will store them, as far as the browser can tell: the default sender name
 * is the app's, which it does not know, so an emptied name waits for the server's answer.
 */
function patch(old: EmailSettings, input: EmailSettingsUpdate): EmailSettings {
  const { sender_name, address_local, ...rest } = input;
  const next = { ...old, ...rest };
  if (sender_name) next.sender_name = sender_name;
  if (address_local !== undefined) {
    const local = address_local.trim().toLowerCase() || `app-${String(old.app)}`;
    next.address_local = local;
    next.address = `${local}@${old.domain}`;
  }
  return next;
}

/** Changes the settings: shown at once, rolled back on error, replaced by the server's (normalized) ones. */
export function useUpdateEmailSettings(appId: string) {
  return useOptimisticMutation({
    key: queryKeys.email.settings(appId),
    mutationFn: (input: EmailSettingsUpdate) =>
      api.post<EmailSettings>(`${emailPath(appId)}/settings`, input),
    patch,
  });
}
