import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { v2PageMeta } from "../contract/schemas";
import { v2Keyset, v2Meta, v2PageParams } from "../api/pagination";
import { emailConfig } from "./config";
import { getEmailSettings, MAX_DELAY, serializeEmailSettings, updateEmailSettings } from "./settings";
import {
  EMAIL_KEY,
  getBounce,
  getEmail,
  listEmails,
  serializeEmail,
  serializeEmailPreview,
} from "./deliveries";
import {
  EMAIL_STATES,
  emailBounceSchema,
  emailDeliverySchema,
  emailPreviewSchema,
  emailSettingsSchema,
  operatorEmailPrefsSchema,
} from "./schemas";
import { getOperatorEmailPrefs, updateOperatorEmailPrefs } from "./prefs";

// The email channel, new in v2: operators (session) and app-admin tokens manage it alike.
const TAGS = ["Email"];
const delay = p.int({ min: 0, max: MAX_DELAY });

export const getEmailSettingsEndpoint = endpoint({
  method: "GET",
  path: "/apps/{id}/email/settings",
  summary: "The app's email settings and addresses; created with defaults on first read",
  tags: TAGS,
  scopes: ["app-admin"],
  v2: {
    response: emailSettingsSchema,
    params: z.object({ id: p.appId() }),
    handler: async (ctx, input) => ({
      data: serializeEmailSettings(await getEmailSettings(ctx, { appId: input.id }), emailConfig()),
    }),
  },
});

export const postEmailSettings = endpoint({
  method: "POST",
  path: "/apps/{id}/email/settings",
  summary:
    "Change the email settings: only the parameters given; an empty sender name or address is the default",
  tags: TAGS,
  scopes: ["app-admin"],
  v2: {
    response: emailSettingsSchema,
    params: z.object({
      id: p.appId(),
      sender_name: p.str({ max: 100, trim: true }).optional(),
      address_local: p.str({ max: 64, trim: true }).optional(),
      continuity: p.bool().optional(),
      continuity_delay: delay.optional(),
      operator_emails: p.bool().optional(),
      operator_delay: delay.optional(),
      transcripts: p.bool().optional(),
    }),
    handler: async (ctx, input) => {
      const s = await updateEmailSettings(ctx, {
        appId: input.id,
        senderName: input.sender_name === undefined ? undefined : input.sender_name || null,
        addressLocal: input.address_local === undefined ? undefined : input.address_local || null,
        continuity: input.continuity,
        continuityDelay: input.continuity_delay,
        operatorEmails: input.operator_emails,
        operatorDelay: input.operator_delay,
        transcripts: input.transcripts,
      });
      return { data: serializeEmailSettings(s, emailConfig()) };
    },
  },
});

export const getEmailDeliveries = endpoint({
  method: "GET",
  path: "/apps/{id}/email/deliveries",
  summary:
    "The app's emails, newest first (paged by ID): recipient, Message-ID, state, attempts, next try, error",
  tags: TAGS,
  scopes: ["app-admin"],
  v2: {
    response: z.array(emailDeliverySchema),
    meta: v2PageMeta,
    params: z.object({
      id: p.appId(),
      state: p.oneOf(EMAIL_STATES).optional(),
      conversation: p.id().optional(),
      ...v2PageParams,
    }),
    handler: async (ctx, input) => {
      const keyset = v2Keyset(input, EMAIL_KEY);
      const page = await listEmails(ctx, {
        appId: input.id,
        state: input.state,
        conversationId: input.conversation,
        page: keyset,
      });
      return { data: page.items.map(serializeEmail), meta: v2Meta(EMAIL_KEY, keyset, page) };
    },
  },
});

export const getEmailDelivery = endpoint({
  method: "GET",
  path: "/apps/{id}/email/deliveries/{email_id}",
  summary: "One email as composed: From, Reply-To, the text and the HTML",
  tags: TAGS,
  scopes: ["app-admin"],
  v2: {
    response: emailPreviewSchema,
    params: z.object({ id: p.appId(), email_id: p.id() }),
    handler: async (ctx, input) => ({
      data: serializeEmailPreview(await getEmail(ctx, { appId: input.id, emailId: input.email_id })),
    }),
  },
});

export const getOperatorEmails = endpoint({
  method: "GET",
  path: "/me/email_notifications",
  summary: "Which emails the logged-in operator gets (operators only: a session)",
  tags: TAGS,
  scopes: [],
  sessionOnly: true,
  v2: {
    response: operatorEmailPrefsSchema,
    params: z.object({}),
    handler: async (ctx) => ({ data: await getOperatorEmailPrefs(ctx) }),
  },
});

export const postOperatorEmails = endpoint({
  method: "POST",
  path: "/me/email_notifications",
  summary: "Turn the logged-in operator's emails on or off: only the parameters given",
  tags: TAGS,
  scopes: [],
  sessionOnly: true,
  v2: {
    response: operatorEmailPrefsSchema,
    params: z.object({
      unread: p.bool().optional(),
      mention: p.bool().optional(),
      assigned: p.bool().optional(),
    }),
    handler: async (ctx, input) => ({ data: await updateOperatorEmailPrefs(ctx, input) }),
  },
});

export const getEmailBounce = endpoint({
  method: "GET",
  path: "/apps/{id}/email/bounces",
  summary: "Whether the app sends nothing more to an address, since a hard bounce came back from it",
  tags: TAGS,
  scopes: ["user-read"],
  v2: {
    response: emailBounceSchema,
    params: z.object({ id: p.appId(), address: p.str({ min: 1, max: 255, trim: true }) }),
    handler: async (ctx, input) => ({
      data: await getBounce(ctx, { appId: input.id, address: input.address }),
    }),
  },
});
