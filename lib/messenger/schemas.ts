import { z } from "zod";
import { id, seconds } from "../contract/schemas";

/**
 * The site owner's messenger settings (lib/messenger/settings.ts), v2 only. Browser-safe (zod only): the panel
 * infers its types from here, and the limits below are the ones the API enforces.
 */
export const MESSENGER_POSITIONS = ["right", "left"] as const;
export const MAX_ALLOWED_ORIGINS = 50;
/** Bounds of the visitor-facing texts, in characters. */
export const MESSENGER_TEXT_MAX = {
  greeting: 200,
  team_intro: 500,
  reply_time_text: 200,
  offline_text: 500,
  email_prompt: 200,
} as const;
export type MessengerTextField = keyof typeof MESSENGER_TEXT_MAX;
export const ACCENT_COLOR = /^#[0-9a-f]{6}$/;

/** The appearance and texts: part of the settings, and all the visitor's messenger shows of them. */
export const messengerAppearance = {
  accent_color: z.string(),
  position: z.enum(MESSENGER_POSITIONS),
  greeting: z.string(),
  team_intro: z.string(),
  reply_time_text: z.string(),
  offline_text: z.string(),
  email_prompt: z.string(),
};

const fields = {
  app: id,
  /** Embeddable in the site's pages (`data-key` of the loader script); not an API token. */
  public_key: z.string(),
  /** Normalized origins (`scheme://host[:port]`) the messenger may run on; empty: every origin. */
  allowed_origins: z.array(z.string()),
  identity_required: z.boolean(),
  ...messengerAppearance,
  updated: seconds.nullable(),
};

/** GET and update mask the identity secret. */
export const messengerSettingsSchema = z.strictObject({ ...fields, identity_secret_hint: z.string() });
/** Rotating the secret is the one answer that shows it. */
export const messengerSecretSchema = z.strictObject({ ...fields, identity_secret: z.string() });

export type MessengerSettings = z.infer<typeof messengerSettingsSchema>;
export type MessengerSettingsWithSecret = z.infer<typeof messengerSecretSchema>;
export type MessengerPosition = (typeof MESSENGER_POSITIONS)[number];
