import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import {
  getMessengerSettings,
  rotateIdentitySecret,
  rotatePublicKey,
  serializeMessengerSettings,
  updateMessengerSettings,
} from "./settings";
import {
  MAX_ALLOWED_ORIGINS,
  MESSENGER_POSITIONS,
  MESSENGER_TEXT_MAX,
  messengerSecretSchema,
  messengerSettingsSchema,
} from "./schemas";

// The site owner's side of the messenger, new in v2: operators (session) and app-admin tokens manage it alike.
const TAGS = ["Messenger"];
const text = (max: number) => p.str({ max }).optional();
const appOnly = z.object({ id: p.appId() });

export const getMessenger = endpoint({
  method: "GET",
  path: "/apps/{id}/messenger",
  summary: "The app's messenger settings (the identity secret masked); created with defaults on first read",
  tags: TAGS,
  scopes: ["app-admin"],
  v2: {
    response: messengerSettingsSchema,
    params: appOnly,
    handler: async (ctx, input) => ({
      data: serializeMessengerSettings(await getMessengerSettings(ctx, { appId: input.id }), {
        secret: false,
      }),
    }),
  },
});

export const postMessenger = endpoint({
  method: "POST",
  path: "/apps/{id}/messenger",
  summary:
    "Change the messenger settings: only the parameters given; origins are normalized to scheme://host[:port]",
  tags: TAGS,
  scopes: ["app-admin"],
  v2: {
    response: messengerSettingsSchema,
    params: z.object({
      id: p.appId(),
      allowed_origins: p.list(p.str({ max: 300, trim: true }), { max: MAX_ALLOWED_ORIGINS }).optional(),
      identity_required: p.bool().optional(),
      accent_color: p.str({ trim: true }).optional(),
      position: p.oneOf(MESSENGER_POSITIONS).optional(),
      greeting: text(MESSENGER_TEXT_MAX.greeting),
      team_intro: text(MESSENGER_TEXT_MAX.team_intro),
      reply_time_text: text(MESSENGER_TEXT_MAX.reply_time_text),
      offline_text: text(MESSENGER_TEXT_MAX.offline_text),
      email_prompt: text(MESSENGER_TEXT_MAX.email_prompt),
    }),
    handler: async (ctx, input) => {
      const row = await updateMessengerSettings(ctx, {
        appId: input.id,
        allowedOrigins: input.allowed_origins,
        identityRequired: input.identity_required,
        accentColor: input.accent_color,
        position: input.position,
        greeting: input.greeting,
        teamIntro: input.team_intro,
        replyTimeText: input.reply_time_text,
        offlineText: input.offline_text,
        emailPrompt: input.email_prompt,
      });
      return { data: serializeMessengerSettings(row, { secret: false }) };
    },
  },
});

export const postMessengerIdentitySecret = endpoint({
  method: "POST",
  path: "/apps/{id}/messenger/identity_secret",
  summary:
    "Make a new identity secret, shown in this answer only; hashes made with the old one stop verifying",
  tags: TAGS,
  scopes: ["app-admin"],
  v2: {
    response: messengerSecretSchema,
    params: appOnly,
    handler: async (ctx, input) => ({
      data: serializeMessengerSettings(await rotateIdentitySecret(ctx, { appId: input.id }), {
        secret: true,
      }),
    }),
  },
});

export const postMessengerPublicKey = endpoint({
  method: "POST",
  path: "/apps/{id}/messenger/public_key",
  summary: "Make a new public messenger key; snippets with the old one stop working",
  tags: TAGS,
  scopes: ["app-admin"],
  v2: {
    response: messengerSettingsSchema,
    params: appOnly,
    handler: async (ctx, input) => ({
      data: serializeMessengerSettings(await rotatePublicKey(ctx, { appId: input.id }), { secret: false }),
    }),
  },
});
